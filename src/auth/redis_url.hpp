// Where the shared rate limiter finds Redis: the --redis URL, parsed and checked.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace leadline::auth {

struct RedisEndpoint {
  std::string host;  // a host name, an IPv4 address, or an IPv6 address without brackets
  int port = 0;
  int database = 0;
  std::string password;  // empty: no AUTH

  // "host:port" (brackets around IPv6), never the password, so it is safe to log.
  std::string display() const;
};

// Exactly "redis://HOST:PORT", "redis://HOST:PORT/DB" or "redis://:PASSWORD@HOST:PORT[/DB]";
// the password may carry %XX escapes. Nothing for anything else.
std::optional<RedisEndpoint> parse_redis_url(std::string_view url);

}  // namespace leadline::auth
