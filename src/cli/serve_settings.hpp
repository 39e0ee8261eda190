// The settings of `leadline serve`, each from its flag, else its LEADLINE_* environment
// variable, else the --config file, else its default; validated before anything starts.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "auth/ip_rule.hpp"
#include "auth/rate_limiter.hpp"
#include "auth/redis_url.hpp"
#include "cli/command.hpp"
#include "cli/setting_sources.hpp"
#include "http/server.hpp"
#include "observability/logger.hpp"

namespace leadline::cli {

struct ListenAddress {
  std::string host;  // without brackets
  unsigned short port = 0;
};

struct ServeSettings {
  http::ServerConfig server;  // the flags' values; size limits keep the HTTP defaults
  auth::RateLimitPolicy rate_limit;
  std::vector<auth::IpRange> trusted_proxies;
  std::optional<auth::RedisEndpoint> redis;  // set: the rate limit is shared through Redis
  std::string db_url;
  bool demo = false;
  observability::LogFormat log_format = observability::LogFormat::kText;
  observability::Level log_level = observability::Level::kInfo;
  std::optional<ListenAddress> admin_listen;  // set: /healthz, /readyz, /metrics served there
};

std::vector<OptionSpec> serve_option_specs();

// Usage failures name the flag, environment variable or config file key that held the bad
// value.
Result<ServeSettings> serve_settings(const SettingSources& sources);

// "HOST:PORT" or "[IPV6]:PORT".
std::optional<ListenAddress> parse_listen_address(std::string_view text);

}  // namespace leadline::cli
