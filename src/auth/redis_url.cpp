// Parsing of the Redis URL: strict, because a typo must stop `serve` rather than silently point
// the shared limiter somewhere else.
#include "auth/redis_url.hpp"

#include <charconv>

#include "auth/ip_rule.hpp"

namespace leadline::auth {

namespace {

constexpr std::string_view kScheme = "redis://";

std::optional<int> parse_number(std::string_view text, int max) {
  int value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc{} || ptr != end || value < 0 || value > max) {
    return std::nullopt;
  }
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

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A password may hold any byte once escaped; '@', '/' and a bare '%' must be escaped.
std::optional<std::string> decode_password(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '@' || c == '/') return std::nullopt;
    if (c != '%') {
      out += c;
      continue;
    }
    if (i + 2 >= text.size()) return std::nullopt;
    const int high = hex_value(text[i + 1]);
    const int low = hex_value(text[i + 2]);
    if (high < 0 || low < 0) return std::nullopt;
    out += static_cast<char>(high * 16 + low);
    i += 2;
  }
  return out;
}

}  // namespace

std::string RedisEndpoint::display() const {
  const bool v6 = host.find(':') != std::string::npos;
  return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

std::optional<RedisEndpoint> parse_redis_url(std::string_view url) {
  if (!url.starts_with(kScheme)) return std::nullopt;
  std::string_view rest = url.substr(kScheme.size());
  RedisEndpoint endpoint;

  const std::size_t slash = rest.find('/');
  if (slash != std::string_view::npos) {
    const auto database = parse_number(rest.substr(slash + 1), 1'000'000);
    if (!database) return std::nullopt;
    endpoint.database = *database;
    rest = rest.substr(0, slash);
  }

  const std::size_t at = rest.rfind('@');
  if (at != std::string_view::npos) {
    // Only the password form of user info: Redis ACL user names are not supported.
    const std::string_view user_info = rest.substr(0, at);
    if (user_info.size() < 2 || user_info.front() != ':') return std::nullopt;
    auto password = decode_password(user_info.substr(1));
    if (!password || password->empty()) return std::nullopt;
    endpoint.password = std::move(*password);
    rest = rest.substr(at + 1);
  }

  const std::size_t colon = rest.rfind(':');
  if (colon == std::string_view::npos) return std::nullopt;
  const auto port = parse_number(rest.substr(colon + 1), 65'535);
  if (!port || *port == 0) return std::nullopt;
  endpoint.port = *port;

  std::string_view host = rest.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
    if (host.find(':') == std::string_view::npos || !parse_ip(host)) return std::nullopt;
  } else if (!is_host_name(host)) {
    return std::nullopt;
  }
  endpoint.host = std::string(host);
  return endpoint;
}

}  // namespace leadline::auth
