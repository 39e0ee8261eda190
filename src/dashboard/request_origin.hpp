// Where a dashboard request came from: whether the browser reached us over HTTPS (directly or
// through a trusted proxy) and our own origin, against which a state change's Origin and
// Sec-Fetch-Site are checked (OWASP CSRF cheat sheet: verify origin with standard headers).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "auth/ip_rule.hpp"
#include "http/request.hpp"

namespace leadline::dashboard {

struct RequestOrigin {
  bool https = false;
  std::string origin;  // "http://host:port" as the browser sees this server
};

// X-Forwarded-Proto and X-Forwarded-Host count only from a peer in `trusted_proxies`.
RequestOrigin request_origin(const http::Request& request,
                             const std::vector<auth::IpRange>& trusted_proxies);

// The sentence refusing a state change that another site started, or nothing: refused when
// Sec-Fetch-Site is "cross-site" or Origin names an origin other than ours. An absent Origin
// and "null" name none and pass (browsers send "null" for same-origin POSTs under
// Referrer-Policy: no-referrer); the CSRF token still has to match.
std::optional<std::string> cross_site_refusal(const http::Request& request,
                                              const RequestOrigin& ours);

}  // namespace leadline::dashboard
