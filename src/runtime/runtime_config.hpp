// What the running server is configured with, however `serve` came by the values (flags,
// environment, config file).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "auth/ip_rule.hpp"
#include "auth/rate_limiter.hpp"
#include "auth/redis_url.hpp"
#include "http/server_config.hpp"
#include "observability/logger.hpp"

namespace leadline::runtime {

struct ListenAddress {
  std::string host;  // without brackets
  unsigned short port = 0;
};

// Webhook delivery and the events' retention (docs/webhooks.md, "Serve settings").
struct WebhookConfig {
  int workers = 16;  // attempts in flight per instance; 0 = this instance delivers nothing
  std::vector<std::chrono::milliseconds> retry_schedule;  // empty: the default schedule
  std::chrono::milliseconds timeout{15'000};
  std::chrono::milliseconds disable_after{5LL * 24 * 3600 * 1000};
  std::chrono::milliseconds event_retention{30LL * 24 * 3600 * 1000};
  std::vector<auth::IpRange> allow_private;
  bool allow_http = false;
};

// The workspace users' dashboard (docs/api.md, "The dashboard").
struct DashboardConfig {
  bool enabled = true;
  std::chrono::milliseconds session_idle{30LL * 60 * 1000};
  std::chrono::milliseconds session_lifetime{12LL * 3600 * 1000};
};

struct RuntimeConfig {
  http::ServerConfig server;  // the API listener; size limits keep the HTTP defaults
  auth::RateLimitPolicy rate_limit;
  std::vector<auth::IpRange> trusted_proxies;
  std::optional<auth::RedisEndpoint> redis;  // set: the rate limit is shared through Redis
  observability::LogFormat log_format = observability::LogFormat::kText;
  observability::Level log_level = observability::Level::kInfo;
  std::optional<ListenAddress> admin_listen;  // set: /healthz, /readyz, /metrics served there
  WebhookConfig webhooks;
  DashboardConfig dashboard;
};

}  // namespace leadline::runtime
