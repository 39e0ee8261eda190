// The workspace users' dashboard under /dashboard (docs/api.md, "The dashboard"; the endpoints
// in docs/design.md): its pages and assets, and its JSON endpoints behind a session cookie,
// the cross-site checks and the CSRF token. It never accepts an API key.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "api/request_facts.hpp"
#include "dashboard/dashboard_call.hpp"
#include "http/request.hpp"
#include "store/database.hpp"

namespace leadline::dashboard {

// True for /dashboard and every path below it.
bool owns(std::string_view path);

// The route labels the handler reports, for metrics known up front.
std::vector<std::string_view> dashboard_routes();

class DashboardHandler {
 public:
  DashboardHandler(store::Database& db, DashboardSettings settings);
  ~DashboardHandler();

  // Answers a request whose path `owns`; `facts` tell the request log what it was (the route,
  // the user's workspace, the failure behind a 5xx).
  void handle(const http::Request& request, http::Response& response, api::RequestFacts& facts);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace leadline::dashboard
