// The API handler as the HTTP server sees it in `serve`: each request is timed from parse to
// response, counted in the metrics and logged as one line (with its route template, key id and
// workspace, never the key or the raw path), plus an error line for a failure behind a 5xx.
#pragma once

#include <vector>

#include "api/api_handler.hpp"
#include "auth/ip_rule.hpp"
#include "dashboard/dashboard_handler.hpp"
#include "http/request.hpp"
#include "observability/http_metrics.hpp"
#include "observability/logger.hpp"

namespace leadline::runtime {

// Route labels besides the API's templates: no route matched, or the HTTP layer refused the
// request before it reached the API (413, 431, malformed, over the connection limit).
inline constexpr std::string_view kNoRoute = "none";
inline constexpr std::string_view kRefused = "refused";

// The metric route labels: the API's templates, the dashboard's routes, then kRefused, then
// kNoRoute (which catches anything else).
std::vector<std::string> api_route_labels();

class ObservedApiHandler final : public http::Handler {
 public:
  // trusted_proxies: to log the client address the way the IP rules see it. `dashboard` (may be
  // null: --no-dashboard) answers every path under /dashboard.
  ObservedApiHandler(api::ApiHandler& inner, dashboard::DashboardHandler* dashboard,
                     const observability::Logger& logger, observability::HttpMetrics& metrics,
                     std::vector<auth::IpRange> trusted_proxies);

  void handle(const http::Request& request, http::Response& response) override;
  void render_refusal(const http::Refusal& refusal, const http::Request* head,
                      http::Response& response) override;
  // The API's own answer: writes run on the blocking pool, reads on the I/O threads. Every
  // dashboard request may wait: on a password hash, or on the write that moves its session on.
  http::Waiting waiting(const http::Request& request) const override;

 private:
  bool for_dashboard(const http::Request& request) const;

  api::ApiHandler& inner_;
  dashboard::DashboardHandler* dashboard_;
  const observability::Logger& logger_;
  observability::HttpMetrics& metrics_;
  std::vector<auth::IpRange> trusted_proxies_;
};

}  // namespace leadline::runtime
