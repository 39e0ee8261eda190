// The order of checks for a JSON endpoint: route (404, 405) -> cross-site (403, state changes
// only) -> session (401) -> CSRF token (403, state changes but a sign-in) -> query -> endpoint.
// Pages without a session redirect to the sign-in page, and the sign-in page with one to the
// first page. Everything carries the security headers.
#include "dashboard/dashboard_handler.hpp"

#include <array>

#include "api/request_id.hpp"
#include "api/routes.hpp"
#include "auth/api_key.hpp"
#include "auth/secret_token.hpp"
#include "dashboard/dashboard_assets.hpp"
#include "dashboard/security_headers.hpp"
#include "dashboard/session_cookie.hpp"

namespace leadline::dashboard {

namespace {

constexpr std::string_view kRoot = "/dashboard";
constexpr std::string_view kAssetsPrefix = "/dashboard/assets/";
constexpr std::string_view kAssetsRoute = "/dashboard/assets";
constexpr std::string_view kApiPrefix = "/dashboard/api/";
constexpr std::string_view kSignInPage = "/dashboard/sign-in";
constexpr std::string_view kFirstPage = "/dashboard/keys";

struct Page {
  std::string_view path;
  std::string_view shell;  // the embedded HTML
  bool needs_session;
};

constexpr std::array kPages{
    Page{kSignInPage, "sign-in.html", false},
    Page{"/dashboard/setup", "setup.html", false},
    Page{kFirstPage, "keys.html", true},
    Page{"/dashboard/usage", "usage.html", true},
    Page{"/dashboard/webhooks", "webhooks.html", true},
    Page{"/dashboard/events", "events.html", true},
};

struct ApiRoute {
  std::string_view path;
  std::string_view allow;
  Endpoint endpoint;
  bool needs_session = true;
  // A POST here signs in: it needs no CSRF token (there is no session to take one from, or the
  // one the browser has is about to be replaced); the cross-site checks still hold.
  bool post_signs_in = false;
};

template <api::Outcome (*Resource)(api::ResourceContext&)>
api::Outcome api_resource(DashboardCall& call) {
  return as_api_resource(call, Resource);
}

const std::array kApiRoutes{
    ApiRoute{"/dashboard/api/session", "GET, HEAD, POST, DELETE", &session_endpoint, false, true},
    ApiRoute{"/dashboard/api/setup", "POST", &setup_endpoint, false, true},
    ApiRoute{"/dashboard/api/keys", "GET, HEAD, POST", &keys_endpoint},
    ApiRoute{"/dashboard/api/keys/revoke", "POST", &key_revocation_endpoint},
    ApiRoute{"/dashboard/api/usage", "GET, HEAD", &usage_endpoint},
    ApiRoute{"/dashboard/api/webhooks", "GET, HEAD, POST, PATCH, DELETE",
             &api_resource<&api::handle_webhooks>},
    ApiRoute{"/dashboard/api/webhooks/rotate-secret", "POST",
             &api_resource<&api::handle_webhook_rotation>},
    ApiRoute{"/dashboard/api/webhooks/test", "POST", &webhook_test_endpoint},
    ApiRoute{"/dashboard/api/webhook-deliveries", "GET, HEAD",
             &api_resource<&api::handle_webhook_deliveries>},
    ApiRoute{"/dashboard/api/webhook-deliveries/retry", "POST",
             &api_resource<&api::handle_webhook_redelivery>},
    ApiRoute{"/dashboard/api/events", "GET, HEAD", &api_resource<&api::handle_events>},
};

bool is_read(std::string_view method) {
  return method == "GET" || method == "HEAD";
}

void redirect(http::Response& response, std::string_view location) {
  response.status = 303;
  response.content_type = "text/plain; charset=utf-8";
  response.headers.emplace_back("Location", location);
  response.body.assign("See ").append(location).append("\n");
}

api::ApiError no_such_path(std::string_view path) {
  return {api::ErrorKind::kNoRoute, "no dashboard page or endpoint at " + std::string(path)};
}

}  // namespace

bool owns(std::string_view path) {
  return path == kRoot || path.starts_with("/dashboard/");
}

std::vector<std::string_view> dashboard_routes() {
  std::vector<std::string_view> routes{kRoot, kAssetsRoute};
  for (const auto& page : kPages) routes.push_back(page.path);
  for (const auto& route : kApiRoutes) routes.push_back(route.path);
  return routes;
}

struct DashboardHandler::Impl {
  store::Database& db;
  DashboardSettings settings;
  api::CursorCodec cursors;

  api::Outcome serve(const http::Request& request, std::string_view path, std::string_view query,
                     http::Response& response, api::RequestFacts& facts, Caching& caching);
  api::Outcome serve_api(const ApiRoute& route, const http::Request& request,
                         std::string_view query, http::Response& response,
                         api::RequestFacts& facts);
  std::optional<SignedIn> resume(const http::Request& request);
};

std::optional<SignedIn> DashboardHandler::Impl::resume(const http::Request& request) {
  const auto token = session_cookie(request);
  // A malformed cookie never reaches the database.
  if (!token || !auth::looks_like_secret_token(*token)) return std::nullopt;
  auto user = db.sessions().resume(auth::secret_token_hash(*token), settings.sessions);
  if (!user) return std::nullopt;
  return SignedIn{std::move(*user), std::string(*token)};
}

api::Outcome DashboardHandler::Impl::serve(const http::Request& request, std::string_view path,
                                           std::string_view query, http::Response& response,
                                           api::RequestFacts& facts, Caching& caching) {
  if (path.starts_with(kApiPrefix)) {
    for (const auto& route : kApiRoutes) {
      if (route.path == path) return serve_api(route, request, query, response, facts);
    }
    return no_such_path(path);
  }
  if (!is_read(request.method)) {
    facts.route = kRoot;
    return api::method_not_allowed(request.method, "GET, HEAD");
  }
  if (path.starts_with(kAssetsPrefix)) {
    facts.route = kAssetsRoute;
    const std::string_view name = path.substr(kAssetsPrefix.size());
    const auto asset = name.ends_with(".html") ? std::nullopt : dashboard_asset(name);
    if (!asset) return no_such_path(path);
    caching = Caching::kAsset;
    // Revalidated on every use (they change with the binary): the ETag lets an unchanged asset
    // cost a 304 instead of its bytes.
    if (request.header("If-None-Match") == asset->etag) {
      response.status = 304;
    } else {
      response.content_type = asset->content_type;
      response.body.assign(asset->body);
    }
    response.headers.emplace_back("ETag", asset->etag);
    return api::kAnswered;
  }
  if (path == kRoot || path == "/dashboard/") {
    facts.route = kRoot;
    redirect(response, kFirstPage);
    return api::kAnswered;
  }
  for (const auto& page : kPages) {
    if (page.path != path) continue;
    facts.route = page.path;
    const auto session = resume(request);
    if (page.needs_session && !session) {
      redirect(response, kSignInPage);
      return api::kAnswered;
    }
    if (page.path == kSignInPage && session) {
      redirect(response, kFirstPage);
      return api::kAnswered;
    }
    if (session) facts.workspace_id = session->user.workspace_id.value;
    const auto shell = dashboard_asset(page.shell);
    if (!shell)
      throw std::logic_error("the dashboard page " + std::string(page.shell) + " is not embedded");
    response.content_type = shell->content_type;
    response.body.assign(shell->body);
    return api::kAnswered;
  }
  return no_such_path(path);
}

api::Outcome DashboardHandler::Impl::serve_api(const ApiRoute& route, const http::Request& request,
                                               std::string_view query, http::Response& response,
                                               api::RequestFacts& facts) {
  facts.route = route.path;
  if (!api::allows_method(route.allow, request.method)) {
    return api::method_not_allowed(request.method, route.allow);
  }
  const RequestOrigin origin = request_origin(request, settings.trusted_proxies);
  const bool changes_state = !is_read(request.method);
  if (changes_state) {
    if (auto refusal = cross_site_refusal(request, origin)) {
      return api::ApiError(api::ErrorKind::kCrossSiteRequest, std::move(*refusal));
    }
  }
  std::optional<SignedIn> session = resume(request);
  if (session) facts.workspace_id = session->user.workspace_id.value;
  const bool needs_token = changes_state && !(route.post_signs_in && request.method == "POST");
  if ((route.needs_session || needs_token) && !session) {
    return api::ApiError(api::ErrorKind::kNotSignedIn,
                         "not signed in: sign in at /dashboard/sign-in");
  }
  if (needs_token && !auth::constant_time_equals(request.header("X-CSRF-Token"),
                                                 auth::csrf_token_for(session->token))) {
    return api::ApiError(api::ErrorKind::kCrossSiteRequest,
                         "missing or wrong CSRF token: send the X-CSRF-Token header with the "
                         "csrf_token of GET /dashboard/api/session");
  }
  auto parsed = api::QueryParams::parse(query);
  if (auto* e = api::failed(parsed)) return api::ApiError(*e);
  DashboardCall call{request,  response, std::get<api::QueryParams>(parsed), db, cursors,
                     settings, origin,   session ? &*session : nullptr};
  return route.endpoint(call);
}

DashboardHandler::DashboardHandler(store::Database& db, DashboardSettings settings)
    : impl_(new Impl{db, std::move(settings), api::CursorCodec(db.cursor_secret())}) {}

DashboardHandler::~DashboardHandler() = default;

void DashboardHandler::handle(const http::Request& request, http::Response& response,
                              api::RequestFacts& facts) {
  std::string request_id = api::request_id_for(request.header("X-Request-Id"));
  Caching caching = Caching::kNoStore;
  api::Outcome outcome;
  try {
    outcome = impl_->serve(request, request.path(), request.query(), response, facts, caching);
  } catch (const store::StoreUnavailable& e) {
    facts.error = e.what();
    outcome = api::database_unavailable(request_id);
  } catch (const std::exception& e) {
    facts.error = e.what();
    outcome = api::internal_error(request_id);
  }
  if (outcome) {
    response.reset();
    api::render_error(*outcome, response);
  }
  add_security_headers(response, caching);
  facts.request_id = request_id;
  response.headers.emplace_back("X-Request-Id", std::move(request_id));
}

}  // namespace leadline::dashboard
