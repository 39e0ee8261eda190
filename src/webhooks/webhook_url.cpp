// Boost.URL decides what an absolute URL is (RFC 3986); the rules on top are the spec's. A host
// that the C library would read as an IPv4 address although it is not dotted-quad ("2130706433",
// "0x7f.1", "127.1") counts as an IP literal too: getaddrinfo turns it into that address without
// asking DNS, so it is as much a literal as "127.0.0.1" and is refused at registration already.
#include "webhooks/webhook_url.hpp"

#include <arpa/inet.h>

#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>

#include "webhooks/url_port.hpp"

namespace leadline::webhooks {

namespace {

constexpr std::size_t kMaxLength = 2048;

std::optional<std::string> range_problem(const AddressPolicy& policy,
                                         const std::optional<auth::IpAddress>& address) {
  if (!address) return std::nullopt;
  if (const auto range = policy.blocked_range(*address)) {
    return "url points into the blocked address range " + std::string(*range);
  }
  return std::nullopt;
}

// The address a host written as a name stands for without a DNS query: inet_aton's legacy
// IPv4 forms (decimal, octal, hex, fewer than four parts).
std::optional<auth::IpAddress> numeric_ipv4(const std::string& host) {
  in_addr parsed{};
  if (inet_aton(host.c_str(), &parsed) == 0) return std::nullopt;
  auth::IpAddress address{.v4 = true};
  const auto* bytes = reinterpret_cast<const unsigned char*>(&parsed.s_addr);
  for (std::size_t i = 0; i < 4; ++i) address.bytes[i] = bytes[i];
  return address;
}

}  // namespace

std::optional<std::string> url_problem(std::string_view url, const UrlRules& rules) {
  const std::string not_absolute = rules.allow_http
                                       ? "url must be an absolute http:// or https:// URL"
                                       : "url must be an absolute https:// URL";
  // parse_uri, not parse_absolute_uri: the latter refuses a fragment, which deserves its own
  // sentence.
  const auto parsed = boost::urls::parse_uri(url);
  if (!parsed) return not_absolute;
  const boost::urls::url_view& u = *parsed;
  const auto scheme = u.scheme_id();
  const bool scheme_ok = scheme == boost::urls::scheme::https ||
                         (rules.allow_http && scheme == boost::urls::scheme::http);
  if (!scheme_ok || !u.has_authority() || u.encoded_host().empty()) return not_absolute;
  // A parsed URL is ASCII, so its length in bytes is its length in characters.
  if (url.size() > kMaxLength) return "url must be at most 2048 characters";
  if (u.has_userinfo()) return "url must not contain user info";
  if (u.has_fragment()) return "url must not contain a fragment";
  // "https://host:99999/" parses (the port is any digits) but names no port.
  if (!url_port(u.port(), scheme == boost::urls::scheme::https)) return not_absolute;
  if (u.host_type() == boost::urls::host_type::ipvfuture)
    return not_absolute;  // [v1.x]: no address
  if (!rules.policy) return std::nullopt;
  switch (u.host_type()) {
    case boost::urls::host_type::ipv4:
      return range_problem(*rules.policy, auth::parse_ip(u.encoded_host()));
    case boost::urls::host_type::ipv6:
      return range_problem(*rules.policy, auth::parse_ip(u.host_ipv6_address().to_string()));
    default:
      return range_problem(*rules.policy, numeric_ipv4(u.host()));
  }
}

}  // namespace leadline::webhooks
