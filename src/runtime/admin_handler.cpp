// Three fixed paths, GET (and HEAD) only; bodies are JSON except the metrics text. Errors use
// the API's vocabulary and envelope.
#include "runtime/admin_handler.hpp"

#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include "api/errors.hpp"
#include "observability/prometheus_text.hpp"

namespace leadline::runtime {

namespace {

void json_response(http::Response& response, unsigned status, const boost::json::value& body) {
  response.status = status;
  response.body = boost::json::serialize(body);
}

}  // namespace

void AdminHandler::handle(const http::Request& request, http::Response& response) {
  const std::string_view path = request.path();
  const bool known = path == "/healthz" || path == "/readyz" || path == "/metrics";
  if (!known) {
    api::render_error({api::ErrorKind::kNoRoute,
                       "no endpoint at this path; the admin listener serves /healthz, /readyz "
                       "and /metrics"},
                      response);
    return;
  }
  if (request.method != "GET" && request.method != "HEAD") {
    api::render_error(api::method_not_allowed(request.method, "GET, HEAD"), response);
    return;
  }
  // Probes and scrapes want the current state, never a cached one.
  response.headers.emplace_back("Cache-Control", "no-store");
  if (path == "/healthz") {
    json_response(response, 200, {{"status", "ok"}});
  } else if (path == "/readyz") {
    ready(response);
  } else {
    response.content_type = std::string(observability::kPrometheusContentType);
    response.body = probes_.metrics();
  }
}

void AdminHandler::ready(http::Response& response) {
  boost::json::object checks;
  bool ready = true;
  if (probes_.database()) {
    checks["database"] = "ok";
  } else {
    checks["database"] = "unavailable";
    ready = false;
  }
  if (!probes_.redis) {
    checks["redis"] = "not configured";
  } else if (auto why = probes_.redis()) {
    checks["redis"] = "unavailable: " + *why;
    ready = false;
  } else {
    checks["redis"] = "ok";
  }
  json_response(response, ready ? 200 : 503,
                {{"status", ready ? "ready" : "not ready"}, {"checks", std::move(checks)}});
}

void AdminHandler::render_refusal(const http::Refusal& refusal, const http::Request* /*head*/,
                                  http::Response& response) {
  // No request id on this listener: its answers are not logged per request.
  api::render_error(api::error_for(refusal, "none"), response);
  response.close = true;
}

}  // namespace leadline::runtime
