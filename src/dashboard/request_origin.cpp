#include "dashboard/request_origin.hpp"

#include <boost/beast/core/string.hpp>

namespace leadline::dashboard {

namespace {

using boost::beast::iequals;  // ASCII, as header values and origins compare

// The first value of a comma-separated header, trimmed: the proxy nearest the client.
std::string_view first_value(std::string_view header) {
  header = header.substr(0, header.find(','));
  while (!header.empty() && header.front() == ' ') header.remove_prefix(1);
  while (!header.empty() && header.back() == ' ') header.remove_suffix(1);
  return header;
}

bool from_trusted_proxy(const http::Request& request,
                        const std::vector<auth::IpRange>& trusted_proxies) {
  if (trusted_proxies.empty()) return false;
  const auto peer = auth::parse_ip(request.peer_ip);
  if (!peer) return false;
  return auth::any_contains(trusted_proxies, *peer);
}

}  // namespace

RequestOrigin request_origin(const http::Request& request,
                             const std::vector<auth::IpRange>& trusted_proxies) {
  RequestOrigin out;
  std::string_view host = request.header("Host");
  if (from_trusted_proxy(request, trusted_proxies)) {
    out.https = iequals(first_value(request.header("X-Forwarded-Proto")), "https");
    const std::string_view forwarded_host = first_value(request.header("X-Forwarded-Host"));
    if (!forwarded_host.empty()) host = forwarded_host;
  }
  out.origin = out.https ? "https://" : "http://";
  // Host names compare without case (RFC 9110); the Origin is compared the same way.
  for (const char c : host)
    out.origin.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c);
  return out;
}

std::optional<std::string> cross_site_refusal(const http::Request& request,
                                              const RequestOrigin& ours) {
  if (iequals(request.header("Sec-Fetch-Site"), "cross-site")) {
    return "refused: the request came from another site (Sec-Fetch-Site: cross-site)";
  }
  const std::string_view origin = request.header("Origin");
  if (origin.empty() || origin == "null") return std::nullopt;
  if (!iequals(origin, ours.origin)) {
    return "refused: the request came from another origin (Origin: " + std::string(origin) + ")";
  }
  return std::nullopt;
}

}  // namespace leadline::dashboard
