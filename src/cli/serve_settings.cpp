// Flag / environment resolution and validation for `leadline serve`.
#include "cli/serve_settings.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>

namespace leadline::cli {

namespace {

// A setting's value and the name to blame when it is wrong ("--listen" or "LEADLINE_LISTEN").
struct Setting {
  std::string value;
  std::string source;
};

std::optional<Setting> setting(const ParsedArguments& args, const std::string& flag,
                               const char* env) {
  if (auto value = args.value(flag)) return Setting{*value, "--" + flag};
  const char* text = std::getenv(env);
  // An empty variable is treated as unset, the usual shell convention.
  if (text == nullptr || *text == '\0') return std::nullopt;
  return Setting{text, env};
}

template <class Int>
std::optional<Int> parse_decimal(std::string_view text) {
  Int value{};
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc{} || ptr != end) return std::nullopt;
  return value;
}

bool is_host_name(std::string_view host) {
  if (host.empty()) return false;
  for (const char c : host) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '-';
    if (!ok) return false;
  }
  return true;
}

constexpr unsigned kMaxThreads = 1024;
constexpr std::size_t kMaxConnections = 1'000'000;
constexpr long long kMaxTimeoutMs = 24LL * 3600 * 1000;  // a day

// A whole number in [1, max] from a flag or its variable; nothing when neither is set.
Result<std::optional<long long>> bounded_setting(const ParsedArguments& args,
                                                 const std::string& flag, const char* env,
                                                 long long max) {
  auto value = setting(args, flag, env);
  if (!value) return std::optional<long long>();
  auto number = parse_decimal<long long>(value->value);
  if (!number || *number < 1 || *number > max) {
    return usage_failure(value->source + " must be a whole number from 1 to " +
                         std::to_string(max) + ", got \"" + value->value + "\"");
  }
  return std::optional<long long>(*number);
}

}  // namespace

std::optional<ListenAddress> parse_listen_address(std::string_view text) {
  const auto colon = text.rfind(':');
  if (colon == std::string_view::npos) return std::nullopt;
  std::string_view host = text.substr(0, colon);
  const auto port = parse_decimal<unsigned short>(text.substr(colon + 1));
  if (!port) return std::nullopt;
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
    const auto ip = auth::parse_ip(host);
    if (!ip || host.find(':') == std::string_view::npos) return std::nullopt;
  } else if (!is_host_name(host)) {
    // An unbracketed IPv6 address cannot be told apart from its port, so it lands here too.
    return std::nullopt;
  }
  return ListenAddress{std::string(host), *port};
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
       .help = "worker threads (env LEADLINE_THREADS, default one per core)"},
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
      {.name = "demo",
       .help = "on an empty database, create a demo workspace with sample data and a key"},
  };
}

Result<ServeSettings> serve_settings(const ParsedArguments& args) {
  ServeSettings settings;

  if (auto listen = setting(args, "listen", "LEADLINE_LISTEN")) {
    auto address = parse_listen_address(listen->value);
    if (!address) {
      return usage_failure(listen->source + " must be HOST:PORT or [IPV6]:PORT, got \"" +
                           listen->value + "\"");
    }
    settings.server.host = address->host;
    settings.server.port = address->port;
  }

  if (auto rate = setting(args, "rate-limit", "LEADLINE_RATE_LIMIT")) {
    auto policy = auth::parse_rate_limit(rate->value);
    if (!policy) {
      return usage_failure(rate->source + " must be N/D with D in ms, s, m or h (e.g. 100/60s), " +
                           "got \"" + rate->value + "\"");
    }
    settings.rate_limit = *policy;
  }

  // Repeated flags and comma-separated lists both work; the environment gives one list.
  std::vector<Setting> proxy_lists;
  for (const auto& value : args.values("trust-proxy"))
    proxy_lists.push_back({value, "--trust-proxy"});
  if (proxy_lists.empty()) {
    if (auto env = setting(args, "trust-proxy", "LEADLINE_TRUST_PROXY"))
      proxy_lists.push_back(*env);
  }
  for (const auto& list : proxy_lists) {
    std::size_t start = 0;
    while (start <= list.value.size()) {
      const auto comma = std::min(list.value.find(',', start), list.value.size());
      std::string entry = list.value.substr(start, comma - start);
      // "10.0.0.0/8, 192.168.0.0/16" reads naturally; spaces around entries are not meant.
      entry.erase(0, entry.find_first_not_of(' '));
      entry.erase(entry.find_last_not_of(' ') + 1);
      start = comma + 1;
      if (entry.empty()) continue;
      auto range = auth::parse_ip_range(entry);
      if (!range) {
        return usage_failure(list.source + ": \"" + entry +
                             "\" is not an IPv4/IPv6 address or CIDR range");
      }
      settings.trusted_proxies.push_back(*range);
    }
  }

  if (auto threads = setting(args, "threads", "LEADLINE_THREADS")) {
    auto count = parse_decimal<unsigned>(threads->value);
    if (!count || *count == 0 || *count > kMaxThreads) {
      return usage_failure(threads->source + " must be a whole number from 1 to " +
                           std::to_string(kMaxThreads) + ", got \"" + threads->value + "\"");
    }
    settings.server.threads = *count;
  }

  auto connections = bounded_setting(args, "max-connections", "LEADLINE_MAX_CONNECTIONS",
                                     static_cast<long long>(kMaxConnections));
  if (auto* f = std::get_if<Failure>(&connections)) return *f;
  if (auto n = std::get<std::optional<long long>>(connections)) {
    settings.server.max_connections = static_cast<std::size_t>(*n);
  }

  const struct {
    const char* flag;
    const char* env;
    std::chrono::milliseconds http::ServerConfig::*field;
  } timeouts[] = {
      {"header-timeout-ms", "LEADLINE_HEADER_TIMEOUT_MS", &http::ServerConfig::header_timeout},
      {"body-timeout-ms", "LEADLINE_BODY_TIMEOUT_MS", &http::ServerConfig::body_timeout},
      {"idle-timeout-ms", "LEADLINE_IDLE_TIMEOUT_MS", &http::ServerConfig::idle_timeout},
      {"write-timeout-ms", "LEADLINE_WRITE_TIMEOUT_MS", &http::ServerConfig::write_timeout},
  };
  for (const auto& t : timeouts) {
    auto ms = bounded_setting(args, t.flag, t.env, kMaxTimeoutMs);
    if (auto* f = std::get_if<Failure>(&ms)) return *f;
    if (auto n = std::get<std::optional<long long>>(ms)) {
      settings.server.*t.field = std::chrono::milliseconds(*n);
    }
  }
  return settings;
}

}  // namespace leadline::cli
