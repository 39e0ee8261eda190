// Flag / environment resolution and validation for `leadline serve`.
#include "cli/serve_settings.hpp"

#include "webhooks/retry_schedule.hpp"

#include <algorithm>
#include <boost/url/parse.hpp>
#include <charconv>
#include <type_traits>

#include "cli/common_options.hpp"
#include "domain/host_name.hpp"

namespace leadline::cli {

namespace {

template <class Int>
std::optional<Int> parse_decimal(std::string_view text) {
  Int value{};
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc{} || ptr != end) return std::nullopt;
  return value;
}

constexpr long long kMaxThreads = 1024;
constexpr long long kMaxConnections = 1'000'000;
// PostgreSQL's own default max_connections is 100; a thousand per instance is past any sane use.
constexpr long long kMaxDbPoolSize = 1000;
constexpr long long kMaxTimeoutMs = 24LL * 3600 * 1000;  // a day

// A setting's parsed value, nothing when it is given nowhere, or a usage failure
// "<source> must be <expected>, got "<value>"". A secret-bearing value is not echoed.
enum class Echo { kValue, kHidden };

template <class Parse,
          class T = typename std::invoke_result_t<Parse&, const std::string&>::value_type>
Result<std::optional<T>> read_setting(const SettingSources& sources, std::string_view name,
                                      Parse parse, std::string_view expected,
                                      Echo echo = Echo::kValue) {
  auto value = sources.find(name);
  if (!value) return std::optional<T>();
  auto parsed = parse(value->value);
  if (!parsed) return value->must_be(expected, echo == Echo::kValue);
  return std::optional<T>(std::move(*parsed));
}

// The whole-number settings: each from its flag or variable, in [1, max], into its field.
struct NumberSetting {
  const char* name;
  long long max;
  void (*store)(ServeSettings&, long long);
};

constexpr NumberSetting kNumberSettings[] = {
    {"threads", kMaxThreads,
     [](ServeSettings& s, long long n) { s.runtime.server.threads = static_cast<unsigned>(n); }},
    {"max-connections", kMaxConnections,
     [](ServeSettings& s, long long n) {
       s.runtime.server.max_connections = static_cast<std::size_t>(n);
     }},
    {"header-timeout-ms", kMaxTimeoutMs,
     [](ServeSettings& s, long long n) {
       s.runtime.server.header_timeout = std::chrono::milliseconds(n);
     }},
    {"body-timeout-ms", kMaxTimeoutMs,
     [](ServeSettings& s, long long n) {
       s.runtime.server.body_timeout = std::chrono::milliseconds(n);
     }},
    {"idle-timeout-ms", kMaxTimeoutMs,
     [](ServeSettings& s, long long n) {
       s.runtime.server.idle_timeout = std::chrono::milliseconds(n);
     }},
    {"write-timeout-ms", kMaxTimeoutMs,
     [](ServeSettings& s, long long n) {
       s.runtime.server.write_timeout = std::chrono::milliseconds(n);
     }},
    {"db-pool-size", kMaxDbPoolSize,
     [](ServeSettings& s, long long n) { s.db.postgres_pool_size = static_cast<std::size_t>(n); }},
};

std::optional<Failure> read_numbers(const SettingSources& sources, ServeSettings& settings) {
  for (const NumberSetting& number : kNumberSettings) {
    const auto in_range = [max = number.max](std::string_view text) {
      auto n = parse_decimal<long long>(text);
      return n && *n >= 1 && *n <= max ? n : std::nullopt;
    };
    auto value = read_setting(sources, number.name, in_range,
                              "a whole number from 1 to " + std::to_string(number.max));
    if (auto* f = std::get_if<Failure>(&value)) return *f;
    if (auto n = std::get<std::optional<long long>>(value)) number.store(settings, *n);
  }
  return std::nullopt;
}

// Repeated flags and comma-separated lists both work (the source joins them with ",").
std::optional<Failure> read_ranges(const SettingSources& sources, std::string_view name,
                                   std::vector<auth::IpRange>& out) {
  auto list = sources.find(name);
  if (!list) return std::nullopt;
  std::size_t start = 0;
  while (start <= list->value.size()) {
    const auto comma = std::min(list->value.find(',', start), list->value.size());
    std::string entry = list->value.substr(start, comma - start);
    // "10.0.0.0/8, 192.168.0.0/16" reads naturally; spaces around entries are not meant.
    entry.erase(0, entry.find_first_not_of(' '));
    entry.erase(entry.find_last_not_of(' ') + 1);
    start = comma + 1;
    if (entry.empty()) continue;
    auto range = auth::parse_ip_range(entry);
    if (!range) {
      return usage_failure(list->source + ": \"" + entry +
                           "\" is not an IPv4/IPv6 address or CIDR range");
    }
    out.push_back(*range);
  }
  return std::nullopt;
}

// "true"/"1" or "false"/"0"; a variable is text, so "1" and "0" are read as the switch they
// usually mean.
std::optional<Failure> read_switch(const SettingSources& sources, std::string_view name,
                                   bool& out) {
  auto value = sources.find(name);
  if (!value) return std::nullopt;
  if (value->value == "true" || value->value == "1") {
    out = true;
  } else if (value->value == "false" || value->value == "0") {
    out = false;
  } else {
    return value->must_be("true or false", true);
  }
  return std::nullopt;
}

std::optional<Failure> read_webhook_settings(const SettingSources& sources,
                                             runtime::WebhookConfig& config) {
  constexpr std::string_view kDuration = "a duration such as 500ms, 15s, 5m, 2h or 30d";
  const std::pair<std::string_view, std::chrono::milliseconds*> durations[] = {
      {"event-retention", &config.event_retention},
      {"webhook-timeout", &config.timeout},
      {"webhook-disable-after", &config.disable_after},
  };
  for (const auto& [name, field] : durations) {
    auto value = read_setting(sources, name, webhooks::parse_duration, kDuration);
    if (auto* f = std::get_if<Failure>(&value)) return *f;
    if (auto d = std::get<std::optional<std::chrono::milliseconds>>(value)) *field = *d;
  }
  auto schedule = read_setting(sources, "webhook-retry-schedule", webhooks::parse_retry_schedule,
                               "comma-separated delays such as 5s,5m,30m");
  if (auto* f = std::get_if<Failure>(&schedule)) return *f;
  if (auto s = std::get<std::optional<std::vector<std::chrono::milliseconds>>>(schedule)) {
    config.retry_schedule = std::move(*s);
  }
  const auto workers_in_range = [](std::string_view text) {
    auto n = parse_decimal<long long>(text);
    return n && *n >= 0 && *n <= 1024 ? n : std::nullopt;
  };
  auto workers =
      read_setting(sources, "webhook-workers", workers_in_range, "a whole number from 0 to 1024");
  if (auto* f = std::get_if<Failure>(&workers)) return *f;
  if (auto n = std::get<std::optional<long long>>(workers)) config.workers = static_cast<int>(*n);
  if (auto failed = read_ranges(sources, "webhook-allow-private", config.allow_private)) {
    return failed;
  }
  return read_switch(sources, "webhook-allow-http", config.allow_http);
}

std::optional<Failure> read_dashboard_settings(const SettingSources& sources,
                                               runtime::DashboardConfig& config) {
  bool off = false;
  if (auto failed = read_switch(sources, "no-dashboard", off)) return failed;
  config.enabled = !off;
  const std::pair<std::string_view, std::chrono::milliseconds*> durations[] = {
      {"dashboard-session-idle", &config.session_idle},
      {"dashboard-session-lifetime", &config.session_lifetime},
  };
  for (const auto& [name, field] : durations) {
    auto value =
        read_setting(sources, name, webhooks::parse_duration, "a duration such as 90s, 30m or 12h");
    if (auto* f = std::get_if<Failure>(&value)) return *f;
    if (auto d = std::get<std::optional<std::chrono::milliseconds>>(value)) *field = *d;
  }
  return std::nullopt;
}

}  // namespace

std::optional<ListenAddress> parse_listen_address(std::string_view text) {
  // An authority as URLs write it: Boost.URL tells a [v6] literal from its port.
  const auto authority = boost::urls::parse_authority(text);
  if (!authority || !authority->has_port() || authority->has_userinfo()) return std::nullopt;
  const auto port = parse_decimal<unsigned short>(authority->port());
  if (!port) return std::nullopt;
  switch (authority->host_type()) {
    case boost::urls::host_type::ipv4:
    case boost::urls::host_type::ipv6:
      return ListenAddress{authority->host_address(), *port};
    case boost::urls::host_type::name:
      if (domain::is_host_name(authority->host_name())) {
        return ListenAddress{authority->host_name(), *port};
      }
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

std::vector<OptionSpec> serve_option_specs() {
  return {
      {.name = "listen",
       .value_name = "HOST:PORT",
       .help = "address to listen on (env LEADLINE_LISTEN, default 127.0.0.1:8080; "
               "[::1]:8080 for IPv6; port 0 picks a free port)"},
      {.name = "rate-limit",
       .value_name = "N/D",
       .help = "requests per key per sliding window, D in ms, s, m or h "
               "(env LEADLINE_RATE_LIMIT, default 100/60s)"},
      {.name = "trust-proxy",
       .value_name = "CIDRS",
       .help = "comma-separated addresses or CIDR ranges of proxies whose X-Forwarded-For is "
               "believed (env LEADLINE_TRUST_PROXY, default none)",
       .repeatable = true},
      {.name = "threads",
       .value_name = "N",
       .help = "worker threads (env LEADLINE_THREADS, default one per core; four per core with "
               "PostgreSQL, whose round trips leave cores idle)"},
      {.name = "max-connections",
       .value_name = "N",
       .help = "open connections served at once; beyond it a new connection gets 503 and is "
               "closed (env LEADLINE_MAX_CONNECTIONS, default 10000)"},
      {.name = "header-timeout-ms",
       .value_name = "MS",
       .help = "a request head must arrive within this many milliseconds of its first byte "
               "(env LEADLINE_HEADER_TIMEOUT_MS, default 10000)"},
      {.name = "body-timeout-ms",
       .value_name = "MS",
       .help = "a request body must arrive within this many milliseconds "
               "(env LEADLINE_BODY_TIMEOUT_MS, default 30000)"},
      {.name = "idle-timeout-ms",
       .value_name = "MS",
       .help = "an idle keep-alive connection is closed after this many milliseconds "
               "(env LEADLINE_IDLE_TIMEOUT_MS, default 60000)"},
      {.name = "write-timeout-ms",
       .value_name = "MS",
       .help = "a response must be taken by the client within this many milliseconds, else the "
               "connection is closed (env LEADLINE_WRITE_TIMEOUT_MS, default 30000)"},
      {.name = "db-pool-size",
       .value_name = "N",
       .help = "connections kept to PostgreSQL, all opened before the server listens "
               "(env LEADLINE_DB_POOL_SIZE, default 16; SQLite ignores it)"},
      {.name = "redis",
       .value_name = "URL",
       .help = "share every key's rate-limit window with all instances through this Redis: "
               "redis://HOST:PORT, redis://HOST:PORT/DB or redis://:PASSWORD@HOST:PORT "
               "(env LEADLINE_REDIS, default none: each process limits alone); while Redis "
               "cannot be reached, API requests get 503"},
      {.name = "demo",
       .help = "on an empty database, create a demo workspace with sample data and a key "
               "(env LEADLINE_DEMO=true, default false)"},
      {.name = "log-format",
       .value_name = "FORMAT",
       .help = "json or text: one line per request and per event on stderr "
               "(env LEADLINE_LOG_FORMAT, default text)"},
      {.name = "log-level",
       .value_name = "LEVEL",
       .help = "debug, info, warn or error; requests are logged at info "
               "(env LEADLINE_LOG_LEVEL, default info)"},
      {.name = "admin-listen",
       .value_name = "HOST:PORT",
       .help = "serve /healthz, /readyz and /metrics on this separate address "
               "(env LEADLINE_ADMIN_LISTEN, default off; port 0 picks a free port)"},
      {.name = "event-retention",
       .value_name = "DURATION",
       .help = "keep events (and their deliveries) this long, D in ms, s, m, h or d "
               "(env LEADLINE_EVENT_RETENTION, default 30d)"},
      {.name = "webhook-workers",
       .value_name = "N",
       .help = "webhook attempts in flight at once in this instance; 0 delivers nothing "
               "(env LEADLINE_WEBHOOK_WORKERS, default 16)"},
      {.name = "webhook-timeout",
       .value_name = "DURATION",
       .help = "a webhook attempt fails unless answered within this "
               "(env LEADLINE_WEBHOOK_TIMEOUT, default 15s)"},
      {.name = "webhook-retry-schedule",
       .value_name = "DELAYS",
       .help = "delays between a delivery's attempts, each varied by 10% "
               "(env LEADLINE_WEBHOOK_RETRY_SCHEDULE, default 5s,5m,30m,2h,5h,10h,10h)"},
      {.name = "webhook-disable-after",
       .value_name = "DURATION",
       .help = "disable an endpoint whose attempts have failed for this long "
               "(env LEADLINE_WEBHOOK_DISABLE_AFTER, default 5d)"},
      {.name = "webhook-allow-private",
       .value_name = "CIDRS",
       .help = "comma-separated ranges webhook attempts may connect to although they are "
               "private, loopback or otherwise blocked (env LEADLINE_WEBHOOK_ALLOW_PRIVATE, "
               "default none)",
       .repeatable = true},
      {.name = "webhook-allow-http",
       .help = "accept http:// webhook URLs, not only https:// "
               "(env LEADLINE_WEBHOOK_ALLOW_HTTP=true, default false)"},
      {.name = "no-dashboard",
       .help = "do not serve the workspace users' dashboard under /dashboard "
               "(env LEADLINE_NO_DASHBOARD=true, default false: served)"},
      {.name = "dashboard-session-idle",
       .value_name = "DURATION",
       .help = "a dashboard session ends this long after its last request "
               "(env LEADLINE_DASHBOARD_SESSION_IDLE, default 30m)"},
      {.name = "dashboard-session-lifetime",
       .value_name = "DURATION",
       .help = "and this long after sign-in at the latest "
               "(env LEADLINE_DASHBOARD_SESSION_LIFETIME, default 12h)"},
      {.name = "config",
       .value_name = "FILE",
       .help = "TOML file whose keys are these flags' names (env LEADLINE_CONFIG); "
               "a flag wins over its variable, which wins over the file"},
      {.name = "print-config",
       .help = "print the effective configuration, where each value came from, and exit"},
  };
}

Result<ServeSettings> serve_settings(const SettingSources& sources) {
  ServeSettings settings;

  auto listen = read_setting(sources, "listen", parse_listen_address, "HOST:PORT or [IPV6]:PORT");
  if (auto* f = std::get_if<Failure>(&listen)) return *f;
  if (const auto& address = std::get<std::optional<ListenAddress>>(listen)) {
    settings.runtime.server.host = address->host;
    settings.runtime.server.port = address->port;
  }

  auto rate = read_setting(sources, "rate-limit", auth::parse_rate_limit,
                           "N/D with D in ms, s, m or h (e.g. 100/60s)");
  if (auto* f = std::get_if<Failure>(&rate)) return *f;
  if (const auto& policy = std::get<std::optional<auth::RateLimitPolicy>>(rate)) {
    settings.runtime.rate_limit = *policy;
  }

  if (auto failed = read_ranges(sources, "trust-proxy", settings.runtime.trusted_proxies)) {
    return *failed;
  }

  if (auto failed = read_numbers(sources, settings)) return *failed;

  // The URL may carry a password, so a bad one is described rather than repeated.
  auto redis = read_setting(
      sources, "redis", auth::parse_redis_url,
      "redis://HOST:PORT, redis://HOST:PORT/DB or redis://:PASSWORD@HOST:PORT", Echo::kHidden);
  if (auto* f = std::get_if<Failure>(&redis)) return *f;
  settings.runtime.redis = std::get<std::optional<auth::RedisEndpoint>>(std::move(redis));

  settings.db_url = kDefaultDbUrl;
  if (auto db = sources.find("db")) {
    if (db->value.empty()) return db->must_be("a database URL, not empty", false);
    settings.db_url = db->value;
  }

  if (auto failed = read_switch(sources, "demo", settings.demo)) return *failed;
  if (auto failed = read_webhook_settings(sources, settings.runtime.webhooks)) return *failed;
  if (auto failed = read_dashboard_settings(sources, settings.runtime.dashboard)) return *failed;

  auto format =
      read_setting(sources, "log-format", observability::parse_log_format, "json or text");
  if (auto* f = std::get_if<Failure>(&format)) return *f;
  if (auto value = std::get<std::optional<observability::LogFormat>>(format)) {
    settings.runtime.log_format = *value;
  }
  auto level =
      read_setting(sources, "log-level", observability::parse_level, "debug, info, warn or error");
  if (auto* f = std::get_if<Failure>(&level)) return *f;
  if (auto value = std::get<std::optional<observability::Level>>(level)) {
    settings.runtime.log_level = *value;
  }

  auto admin =
      read_setting(sources, "admin-listen", parse_listen_address, "HOST:PORT or [IPV6]:PORT");
  if (auto* f = std::get_if<Failure>(&admin)) return *f;
  settings.runtime.admin_listen = std::get<std::optional<ListenAddress>>(std::move(admin));
  return settings;
}

}  // namespace leadline::cli
