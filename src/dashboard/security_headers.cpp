#include "dashboard/security_headers.hpp"

namespace leadline::dashboard {

namespace {

// No inline script or style anywhere in web/dashboard/; scripts may still set element styles
// through the DOM (uPlot does), which a CSP does not govern.
constexpr std::string_view kPolicy =
    "default-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'";

}  // namespace

void add_security_headers(http::Response& response, Caching caching) {
  response.headers.emplace_back("Content-Security-Policy", kPolicy);
  response.headers.emplace_back("X-Content-Type-Options", "nosniff");
  response.headers.emplace_back("Referrer-Policy", "same-origin");
  response.headers.emplace_back("X-Frame-Options", "DENY");
  // Assets change only with the binary, yet must not outlive an upgrade by a day: revalidate.
  response.headers.emplace_back("Cache-Control",
                                caching == Caching::kAsset ? "no-cache" : "no-store");
}

}  // namespace leadline::dashboard
