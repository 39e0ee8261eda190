// The settings of `leadline serve`, each from its flag or else its LEADLINE_* environment
// variable (the flag wins), validated before anything starts.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "auth/ip_rule.hpp"
#include "auth/rate_limiter.hpp"
#include "auth/redis_url.hpp"
#include "cli/command.hpp"
#include "http/server.hpp"

namespace leadline::cli {

struct ServeSettings {
  http::ServerConfig server;  // the flags' values; size limits keep the HTTP defaults
  auth::RateLimitPolicy rate_limit;
  std::vector<auth::IpRange> trusted_proxies;
  std::optional<auth::RedisEndpoint> redis;  // set: the rate limit is shared through Redis
};

std::vector<OptionSpec> serve_option_specs();

// Usage failures name the flag or environment variable that held the bad value.
Result<ServeSettings> serve_settings(const ParsedArguments& args);

struct ListenAddress {
  std::string host;  // without brackets
  unsigned short port = 0;
};

// "HOST:PORT" or "[IPV6]:PORT".
std::optional<ListenAddress> parse_listen_address(std::string_view text);

}  // namespace leadline::cli
