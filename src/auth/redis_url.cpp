// Parsing of the Redis URL through Boost.URL (syntax, percent-decoding, IPv6 literals), plus
// leadline's stricter rules: a typo must stop `serve` rather than silently point the shared
// limiter somewhere else.
#include "auth/redis_url.hpp"

#include <boost/url/parse.hpp>
#include <charconv>

#include "domain/host_name.hpp"

namespace leadline::auth {

namespace {

std::optional<int> parse_number(std::string_view text, int max) {
  int value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc{} || ptr != end || value < 0 || value > max) {
    return std::nullopt;
  }
  return value;
}

}  // namespace

std::string RedisEndpoint::display() const {
  const bool v6 = host.find(':') != std::string::npos;
  return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

std::optional<RedisEndpoint> parse_redis_url(std::string_view url) {
  const auto parsed = boost::urls::parse_uri(url);
  if (!parsed) return std::nullopt;
  const boost::urls::url_view& u = *parsed;
  // The scheme exactly as written, a port, and nothing after the database number.
  if (u.scheme() != "redis" || !u.has_port() || u.has_query() || u.has_fragment()) {
    return std::nullopt;
  }
  RedisEndpoint endpoint;
  const auto port = parse_number(u.port(), 65'535);
  if (!port || *port == 0) return std::nullopt;
  endpoint.port = *port;

  // Boost.URL 1.81 reads "host:63a9" as port 63 and path "a9", so the slash is checked here.
  const std::string_view path = u.encoded_path();
  if (!path.empty()) {
    if (path.front() != '/') return std::nullopt;
    const auto database = parse_number(path.substr(1), 1'000'000);
    if (!database) return std::nullopt;
    endpoint.database = *database;
  }

  if (u.has_userinfo()) {
    // Only the password form of user info: Redis ACL user names are not supported.
    if (!u.encoded_user().empty() || !u.has_password()) return std::nullopt;
    endpoint.password = u.password();
    if (endpoint.password.empty()) return std::nullopt;
  }

  switch (u.host_type()) {
    case boost::urls::host_type::ipv4:
    case boost::urls::host_type::ipv6:
      endpoint.host = u.host_address();
      break;
    case boost::urls::host_type::name:
      endpoint.host = u.host_name();
      if (!domain::is_host_name(endpoint.host)) return std::nullopt;
      break;
    default:
      return std::nullopt;
  }
  return endpoint;
}

}  // namespace leadline::auth
