// What a dashboard endpoint gets once routing, the cross-site checks, the session and its CSRF
// token have passed; and the endpoints, one file per concern.
#pragma once

#include <string>
#include <vector>

#include "api/cursor_codec.hpp"
#include "api/errors.hpp"
#include "api/query_params.hpp"
#include "api/resource_context.hpp"
#include "auth/ip_rule.hpp"
#include "dashboard/request_origin.hpp"
#include "domain/dashboard_user.hpp"
#include "http/request.hpp"
#include "store/database.hpp"
#include "store/session_store.hpp"

namespace leadline::dashboard {

struct DashboardSettings {
  store::SessionLifetime sessions;
  // Whose X-Forwarded-Proto/-Host are believed (serve's --trust-proxy).
  std::vector<auth::IpRange> trusted_proxies;
  api::WebhookRules webhooks;
};

struct SignedIn {
  domain::DashboardUser user;
  std::string token;  // the session id the cookie carried
};

struct DashboardCall {
  const http::Request& request;
  http::Response& response;
  const api::QueryParams& query;
  store::Database& db;
  const api::CursorCodec& cursors;
  const DashboardSettings& settings;
  const RequestOrigin& origin;
  const SignedIn* session;  // null on the endpoints that need none (sign-in, setup)
};

using Endpoint = api::Outcome (*)(DashboardCall&);

// session_endpoints.cpp
api::Outcome session_endpoint(DashboardCall& call);  // GET: who; POST: sign in; DELETE: out
api::Outcome setup_endpoint(DashboardCall& call);    // POST: choose a password, signed in
// keys_endpoints.cpp
api::Outcome keys_endpoint(DashboardCall& call);  // GET: list; POST: create
api::Outcome key_revocation_endpoint(DashboardCall& call);
// usage_endpoint.cpp
api::Outcome usage_endpoint(DashboardCall& call);
// webhook_endpoints.cpp: the API's own webhook and event resources, in the user's workspace,
// and the test event.
api::Outcome as_api_resource(DashboardCall& call, api::Outcome (*resource)(api::ResourceContext&));
api::Outcome webhook_test_endpoint(DashboardCall& call);

}  // namespace leadline::dashboard
