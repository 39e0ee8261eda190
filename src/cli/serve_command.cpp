// `leadline serve`: wires store -> authenticator -> rate limiter -> usage recorder -> API
// handler -> HTTP server, announces the address, and runs until SIGINT or SIGTERM.
#include <algorithm>
#include <chrono>
#include <csignal>
#include <exception>
#include <iostream>
#include <memory>
#include <thread>

#include "api/api_handler.hpp"
#include "auth/authenticator.hpp"
#include "auth/redis_sliding_window_limiter.hpp"
#include "auth/sliding_window_limiter.hpp"
#include "auth/usage_recorder.hpp"
#include "cli/admin_handler.hpp"
#include "cli/command_groups.hpp"
#include "cli/common_options.hpp"
#include "cli/demo_data.hpp"
#include "cli/effective_config.hpp"
#include "cli/metrics_page.hpp"
#include "cli/observed_api_handler.hpp"
#include "cli/serve_settings.hpp"
#include "cli/shutdown_signals.hpp"
#include "http/server.hpp"
#include "observability/http_metrics.hpp"
#include "observability/logger.hpp"
#include "store/instrumented_store.hpp"

namespace leadline::cli {

namespace {

// Often enough that `keys usage` sees requests within the 5 seconds the contract allows.
constexpr std::chrono::milliseconds kUsageFlushInterval{1000};

// One report for both forms: the human lines end with the line tests and scripts wait for (the
// API's first, then the admin listener's).
Report listening_report(const std::string& address, const std::optional<std::string>& admin,
                        const std::optional<DemoSeed>& demo) {
  const std::string listening = "leadline listening on " + address;
  boost::json::object data{{"listening_on", address}, {"message", listening}};
  if (admin) data["admin_listening_on"] = *admin;
  Report report{.human_body = false};
  if (demo) {
    auto summary = describe_demo(*demo, address);
    data["demo"] = std::move(summary.json);
    report.notes = std::move(summary.lines);
  }
  report.notes.push_back(listening);
  if (admin) report.notes.push_back("admin listening on " + *admin);
  report.data = std::move(data);
  return report;
}

// The in-process limiter, or the shared one when --redis is set. A Redis that cannot be reached
// yet is only a warning: instances and Redis may come up in any order, and until it answers
// every API request is refused with 503 rather than served unlimited.
std::unique_ptr<auth::RateLimiter> make_limiter(const ServeSettings& config,
                                                const observability::Logger& logger) {
  if (!config.redis) return std::make_unique<auth::SlidingWindowLimiter>(config.rate_limit);
  // hiredis writes with write(2): a Redis that went away must cost a request a 503, not the
  // process a SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  auto shared = std::make_unique<auth::RedisSlidingWindowLimiter>(
      config.rate_limit, *config.redis, auth::RedisLimiterOptions{}, logger);
  if (auto reason = shared->probe()) {
    const std::string address = config.redis->display();
    logger.log(observability::Level::kWarn,
               "cannot reach Redis at " + address +
                   "; serving anyway, API requests get 503 until it answers",
               {{"redis", address}, {"error", *reason}});
  }
  return shared;
}

// What /readyz and /metrics look at. The Redis probe runs on the admin thread with that
// thread's own connection, like every other limiter thread.
AdminProbes admin_probes(store::Store& store, auth::RateLimiter& limiter,
                         const observability::HttpMetrics& metrics,
                         store::InstrumentedStore& timed_store, const auth::UsageRecorder& usage) {
  AdminProbes probes;
  probes.database = [&store] { return store.ping(); };
  if (auto* redis = dynamic_cast<auth::RedisSlidingWindowLimiter*>(&limiter)) {
    probes.redis = [redis] { return redis->probe(); };
  }
  probes.metrics = [&metrics, &timed_store, &usage] {
    return metrics_page(metrics, timed_store, usage);
  };
  return probes;
}

http::ServerConfig admin_server_config(const ListenAddress& address) {
  http::ServerConfig config;
  config.host = address.host;
  config.port = address.port;
  config.threads = 1;  // probes and scrapes are rare and small
  // Nothing the admin handler answers waits on a commit; one idle thread rather than 64.
  config.blocking_threads = 1;
  config.max_connections = 64;
  return config;
}

std::optional<Failure> serve(const Invocation& in) {
  auto sources = setting_sources(in.args);
  if (auto* f = std::get_if<Failure>(&sources)) return *f;
  auto settings = serve_settings(std::get<SettingSources>(sources));
  if (auto* f = std::get_if<Failure>(&settings)) return *f;
  auto& config = std::get<ServeSettings>(settings);
  if (in.args.has("print-config")) {
    std::cout << effective_config_toml(std::get<SettingSources>(sources)) << std::flush;
    return std::nullopt;
  }
  const observability::Logger logger(config.log_format, config.log_level);
  auto opened = open_store_at(config.db_url);
  if (auto* f = std::get_if<Failure>(&opened)) return *f;
  auto& database = *std::get<0>(opened);

  std::optional<DemoSeed> demo;
  if (config.demo) {
    auto seeded = seed_demo_data(database);
    if (auto* f = std::get_if<Failure>(&seeded)) return *f;
    demo = std::get<DemoSeed>(std::move(seeded));
  }

  // Everything that serves requests sees the timed store, so its time shows in the metrics.
  store::InstrumentedStore store(database);
  auth::Authenticator authenticator(store, config.trusted_proxies);
  const auto limiter = make_limiter(config, logger);
  auth::UsageRecorder usage(store, kUsageFlushInterval, auth::system_clock_ms(), logger);
  api::ApiHandler api(store, authenticator, *limiter, usage);
  observability::HttpMetrics metrics(api_route_labels());
  ObservedApiHandler handler(api, logger, metrics, config.trusted_proxies);
  // Each request on a database server waits on round trips; more threads than cores keep the
  // cores busy meanwhile (measured with PostgreSQL on 2 cores: 8 threads serve 1.8x the reads of
  // 2, and 1.8x what handing every request to the 64-thread blocking pool did).
  if (config.server.threads == 0 && store.remote()) {
    config.server.threads = 4 * std::max(1u, std::thread::hardware_concurrency());
  }
  http::Server server(config.server, handler);

  std::optional<AdminHandler> admin_handler;
  std::optional<http::Server> admin_server;
  if (config.admin_listen) {
    admin_handler.emplace(admin_probes(database, *limiter, metrics, store, usage));
    admin_server.emplace(admin_server_config(*config.admin_listen), *admin_handler);
  }
  ShutdownSignals signals([&server, &admin_server] {
    server.stop();
    if (admin_server) admin_server->stop();
  });

  std::string address;
  std::optional<std::string> admin_address;
  // listen() reports a busy port or an unresolvable host by throwing; for the operator that
  // is an ordinary failure to read, not a crash.
  try {
    address = server.listen();
    if (admin_server) admin_address = admin_server->listen();
  } catch (const std::exception& e) {
    return failure(e.what());
  }
  in.out.emit(listening_report(address, admin_address, demo));

  std::thread admin_thread;
  if (admin_server) admin_thread = std::thread([&admin_server] { admin_server->run(); });
  server.run();
  if (admin_server) {
    admin_server->stop();
    admin_thread.join();
  }
  usage.flush();
  return std::nullopt;
}

}  // namespace

std::vector<Command> serve_commands() {
  return {
      {{.name = "serve",
        .summary = "Run the HTTP API until SIGINT or SIGTERM.",
        .options = serve_option_specs(),
        .details = "Prints \"leadline listening on HOST:PORT\" once requests are accepted (and "
                   "\"admin listening on HOST:PORT\" with --admin-listen). With "
                   "--redis, every instance given the same Redis shares one window per key; "
                   "while Redis cannot be reached, API requests get 503 with Retry-After: 1 "
                   "(never served unlimited), and service resumes by itself when it answers."},
       serve},
  };
}

}  // namespace leadline::cli
