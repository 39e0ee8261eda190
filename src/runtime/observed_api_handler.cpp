// Timing, counting and the request log line around api::ApiHandler; the log line is formatted
// and written after the response is complete, on the worker thread that produced it.
#include "runtime/observed_api_handler.hpp"

#include <algorithm>
#include <boost/asio/ip/address.hpp>
#include <chrono>

#include "api/reference_pages.hpp"
#include "api/request_facts.hpp"
#include "api/routes.hpp"

namespace leadline::runtime {

namespace {

std::string client_ip(const http::Request& request,
                      const std::vector<auth::IpRange>& trusted_proxies) {
  if (trusted_proxies.empty()) return std::string(request.peer_ip);
  const auto peer = auth::parse_ip(request.peer_ip);
  if (!peer) return std::string(request.peer_ip);
  const auth::IpAddress client =
      auth::resolve_client_ip(*peer, request.header("X-Forwarded-For"), trusted_proxies);
  if (client.v4) {
    boost::asio::ip::address_v4::bytes_type bytes;
    std::copy_n(client.bytes.begin(), bytes.size(), bytes.begin());
    return boost::asio::ip::address_v4(bytes).to_string();
  }
  return boost::asio::ip::address_v6(client.bytes).to_string();
}

}  // namespace

std::vector<std::string> api_route_labels() {
  std::vector<std::string> labels;
  for (const auto route : api::route_templates()) labels.emplace_back(route);
  for (const auto route : api::reference_routes()) labels.emplace_back(route);
  for (const auto route : dashboard::dashboard_routes()) labels.emplace_back(route);
  labels.emplace_back(kRefused);
  labels.emplace_back(kNoRoute);
  return labels;
}

ObservedApiHandler::ObservedApiHandler(api::ApiHandler& inner,
                                       dashboard::DashboardHandler* dashboard,
                                       const observability::Logger& logger,
                                       observability::HttpMetrics& metrics,
                                       std::vector<auth::IpRange> trusted_proxies)
    : inner_(inner),
      dashboard_(dashboard),
      logger_(logger),
      metrics_(metrics),
      trusted_proxies_(std::move(trusted_proxies)) {}

void ObservedApiHandler::handle(const http::Request& request, http::Response& response) {
  const auto in_flight = metrics_.enter();
  const auto start = std::chrono::steady_clock::now();
  api::RequestFacts facts;
  if (for_dashboard(request)) {
    dashboard_->handle(request, response, facts);
  } else {
    inner_.handle(request, response, facts);
  }
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;

  const std::string_view route = facts.route.empty() ? kNoRoute : facts.route;
  metrics_.observe(route, request.method, response.status, elapsed.count());

  const std::string ip = client_ip(request, trusted_proxies_);
  if (!facts.error.empty()) {
    logger_.log(response.status >= 500 ? observability::Level::kError : observability::Level::kWarn,
                "request failed",
                {{"request_id", facts.request_id},
                 {"method", request.method},
                 {"route", route},
                 {"status", static_cast<std::int64_t>(response.status)},
                 {"error", facts.error}});
  }
  if (!logger_.enabled(observability::Level::kInfo)) return;
  logger_.log(observability::Level::kInfo, "request",
              {{"request_id", facts.request_id},
               {"method", request.method},
               {"route", route},
               {"status", static_cast<std::int64_t>(response.status)},
               {"duration_ms", elapsed.count() * 1000.0},
               {"key_id", facts.key_id},
               {"workspace_id", facts.workspace_id},
               {"client_ip", ip},
               {"bytes", static_cast<std::int64_t>(response.body.size())}});
}

bool ObservedApiHandler::for_dashboard(const http::Request& request) const {
  if (dashboard_ == nullptr) return false;
  return dashboard::owns(request.path());
}

http::Waiting ObservedApiHandler::waiting(const http::Request& request) const {
  // The dashboard hashes passwords (Argon2id) and reads on its own: its thread may block.
  return for_dashboard(request) ? http::Waiting::kBlocking : inner_.waiting(request);
}

void ObservedApiHandler::render_refusal(const http::Refusal& refusal, const http::Request* head,
                                        http::Response& response) {
  api::RequestFacts facts;
  inner_.render_refusal(refusal, head, response, facts);
  metrics_.observe(kRefused, "other", response.status, 0.0);
  logger_.log(observability::Level::kInfo, "request refused",
              {{"request_id", facts.request_id},
               {"route", kRefused},
               {"status", static_cast<std::int64_t>(response.status)},
               {"reason", facts.error},
               {"bytes", static_cast<std::int64_t>(response.body.size())}});
}

}  // namespace leadline::runtime
