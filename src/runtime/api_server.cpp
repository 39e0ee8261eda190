// Wiring: database -> authenticator -> rate limiter -> usage recorder -> API handler -> request
// log and metrics -> HTTP server, plus the admin listener on a thread of its own.
#include "runtime/api_server.hpp"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <memory>
#include <thread>

#include "api/api_handler.hpp"
#include "auth/authenticator.hpp"
#include "auth/redis_sliding_window_limiter.hpp"
#include "auth/sliding_window_limiter.hpp"
#include "auth/usage_recorder.hpp"
#include "http/server/server.hpp"
#include "observability/http_metrics.hpp"
#include "observability/logger.hpp"
#include "runtime/admin_handler.hpp"
#include "runtime/delivery_workers.hpp"
#include "runtime/metrics_page.hpp"
#include "runtime/observed_api_handler.hpp"
#include "runtime/retention_purge.hpp"
#include "runtime/shutdown_signals.hpp"
#include "webhooks/blocked_ranges.hpp"

namespace leadline::runtime {

namespace {

// Often enough that `keys usage` sees requests within the 5 seconds the contract allows.
constexpr std::chrono::milliseconds kUsageFlushInterval{1000};

// The in-process limiter, or the shared one when Redis is configured. A Redis that cannot be
// reached yet is only a warning: instances and Redis may come up in any order, and until it
// answers every API request is refused with 503 rather than served unlimited.
std::unique_ptr<auth::RateLimiter> make_limiter(const RuntimeConfig& config,
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
AdminProbes admin_probes(store::Database& db, store::OperationMetrics& db_metrics,
                         auth::RateLimiter& limiter, const observability::HttpMetrics& metrics,
                         const auth::UsageRecorder& usage) {
  AdminProbes probes;
  probes.database = [&db] { return db.engine().ping(); };
  if (auto* redis = dynamic_cast<auth::RedisSlidingWindowLimiter*>(&limiter)) {
    probes.redis = [redis] { return redis->probe(); };
  }
  probes.metrics = [&metrics, &db, &db_metrics, &usage] {
    return metrics_page(metrics, db_metrics, db.engine(), usage);
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

}  // namespace

void run_api_server(const RuntimeConfig& config, store::Database& db,
                    store::OperationMetrics& db_metrics, const ListeningCallback& on_listening) {
  const observability::Logger logger(config.log_format, config.log_level);
  auth::Authenticator authenticator(
      [&db](std::string_view key_hash) { return db.keys().find_by_hash(key_hash); },
      config.trusted_proxies);
  const auto limiter = make_limiter(config, logger);
  auth::UsageRecorder usage(
      [&db](const std::vector<domain::UsageDelta>& deltas) { db.usage().record(deltas); },
      kUsageFlushInterval, auth::system_clock_ms(), logger);
  const webhooks::AddressPolicy address_policy(config.webhooks.allow_private);
  api::ApiHandler api(db, authenticator, *limiter, usage,
                      api::WebhookRules{{config.webhooks.allow_http, &address_policy}});
  const store::SessionLifetime sessions{config.dashboard.session_idle,
                                        config.dashboard.session_lifetime};
  std::optional<dashboard::DashboardHandler> dashboard;
  if (config.dashboard.enabled) {
    dashboard.emplace(db, dashboard::DashboardSettings{
                              sessions, config.trusted_proxies,
                              api::WebhookRules{{config.webhooks.allow_http, &address_policy}}});
  }
  observability::HttpMetrics metrics(api_route_labels());
  ObservedApiHandler handler(api, dashboard ? &*dashboard : nullptr, logger, metrics,
                             config.trusted_proxies);

  http::ServerConfig server_config = config.server;
  // Each request on a database server waits on round trips; more threads than cores keep the
  // cores busy meanwhile (measured with PostgreSQL on 2 cores: 8 threads serve 1.8x the reads of
  // 2, and 1.8x what handing every request to the 64-thread blocking pool did).
  if (server_config.threads == 0 && db.engine().remote()) {
    server_config.threads = 4 * std::max(1u, std::thread::hardware_concurrency());
  }
  http::Server server(server_config, handler);

  std::optional<AdminHandler> admin_handler;
  std::optional<http::Server> admin_server;
  if (config.admin_listen) {
    admin_handler.emplace(admin_probes(db, db_metrics, *limiter, metrics, usage));
    admin_server.emplace(admin_server_config(*config.admin_listen), *admin_handler);
  }
  ShutdownSignals signals([&server, &admin_server] {
    server.stop();
    if (admin_server) admin_server->stop();
  });

  db.engine().warm_up();
  const std::string address = server.listen();
  std::optional<std::string> admin_address;
  if (admin_server) admin_address = admin_server->listen();
  on_listening(address, admin_address);

  std::thread admin_thread;
  if (admin_server) admin_thread = std::thread([&admin_server] { admin_server->run(); });
  {
    const DeliveryWorkers deliveries(db, config.webhooks, domain::system_clock(), logger);
    const RetentionPurge purge(db, config.webhooks.event_retention, sessions,
                               domain::system_clock(), logger);
    server.run();
  }
  if (admin_server) {
    admin_server->stop();
    admin_thread.join();
  }
  usage.flush();
}

}  // namespace leadline::runtime
