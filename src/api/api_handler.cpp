// The request pipeline in the contract's order (docs/api.md, "Authentication"): route (404,
// 405) -> authenticate (401) -> IP whitelist (403) -> rate limit (429, or 503 when the shared
// limiter is unreachable) -> scope (403) -> Idempotency-Key (400, 409, 422 or a replay, on a
// POST that carries one) -> validation (400) -> operation. Each step ends in an
// Outcome; an unreachable database becomes a 503 and anything else thrown below a 500 that
// names only the request id (the caller logs the failure).
#include "api/api_handler.hpp"

#include <string>

#include "api/cursor_codec.hpp"
#include "api/errors.hpp"
#include "api/idempotent_requests.hpp"
#include "api/query_params.hpp"
#include "api/reference_pages.hpp"
#include "api/request_id.hpp"
#include "api/resource_context.hpp"
#include "api/routes.hpp"
#include "store/carried_check.hpp"
#include "store/sql/connection.hpp"

namespace leadline::api {

namespace {

ApiError invalid_key() {
  return ApiError(ErrorKind::kInvalidCredentials, "invalid or revoked API key");
}

void add_rate_limit_headers(http::Response& response, const auth::RateLimitDecision& d) {
  response.headers.emplace_back("X-RateLimit-Limit", std::to_string(d.limit));
  response.headers.emplace_back("X-RateLimit-Remaining", std::to_string(d.remaining));
  response.headers.emplace_back("X-RateLimit-Reset", std::to_string(d.reset_unix_s));
}

// The usage label of a request: method and the route's last segment, "GET /leads". Written
// into one buffer per thread, valid until the thread's next call: counting an endpoint that is
// already counted this hour then allocates nothing.
std::string_view usage_endpoint(std::string_view method, std::string_view route) {
  thread_local std::string endpoint;
  endpoint.assign(method).append(" ").append(route.substr(kBasePath.size()));
  return endpoint;
}

}  // namespace

struct ApiHandler::Impl {
  store::Database& db;
  auth::Authenticator& authenticator;
  auth::RateLimiter& limiter;
  auth::UsageRecorder& usage;
  CursorCodec cursors;
  WebhookRules webhooks;

  Outcome serve(const http::Request& request, http::Response& response, RequestFacts& facts);
  Checked<auth::AuthenticatedKey> authenticate(const http::Request& request);
  Outcome serve_as(const domain::ApiKeyRecord& key, const Route& route,
                   const http::Request& request, http::Response& response);
  // The 401 of a remembered key that turned out revoked, as if it had been looked up.
  Outcome refuse_forgotten(const http::Request& request, http::Response& response,
                           RequestFacts& facts);
  Outcome admit(const domain::ApiKeyRecord& key, http::Response& response);
  static Outcome check_scope(const domain::ApiKeyRecord& key, std::string_view method);
};

// Fills `response`, or returns the error to answer with; facts.key_id is set once the request
// is attributable to a key (it passed authentication), so that usage can be recorded.
Outcome ApiHandler::Impl::serve(const http::Request& request, http::Response& response,
                                RequestFacts& facts) {
  const std::string_view path = request.path();
  if (auto reference = serve_reference(path, request, response)) {
    facts.route = reference->route;
    return std::move(reference->outcome);
  }
  const Route* route = find_route(path);
  if (route == nullptr) return ApiError(ErrorKind::kNoRoute, unknown_path_message(path));
  facts.route = route->path;
  if (!method_allowed(*route, request.method)) {
    return method_not_allowed(request.method, route->allow);
  }

  auto authenticated = authenticate(request);
  if (auto* e = failed(authenticated)) return *e;
  const auto& [key, remembered] = std::get<auth::AuthenticatedKey>(authenticated);
  facts.key_id = key.id.value;
  facts.workspace_id = key.workspace_id.value;
  if (!remembered) return serve_as(key, *route, request, response);

  // A remembered key is confirmed with the request's first round trip, or on its own before
  // an answer that took none; a revocation by any process counts on the very next request.
  Outcome outcome;
  store::CarriedCheck check = db.keys().carry_usable_check(key.id);
  try {
    outcome = serve_as(key, *route, request, response);
  } catch (const store::sql::CheckFailed&) {
    return refuse_forgotten(request, response, facts);
  }
  if (!check.ran()) {
    check.mark_ran();
    if (!db.keys().usable(key.id)) return refuse_forgotten(request, response, facts);
  }
  return outcome;
}

Outcome ApiHandler::Impl::refuse_forgotten(const http::Request& request, http::Response& response,
                                           RequestFacts& facts) {
  authenticator.forget(request.header("Authorization"));
  response.reset();
  facts.key_id.clear();
  facts.workspace_id.clear();
  return invalid_key();
}

Outcome ApiHandler::Impl::serve_as(const domain::ApiKeyRecord& key, const Route& route,
                                   const http::Request& request, http::Response& response) {
  const std::string_view path = request.path();
  if (auto refused = admit(key, response)) return refused;
  if (auto refused = check_scope(key, request.method)) return refused;

  auto query = QueryParams::parse(request.query());
  if (auto* e = failed(query)) return ApiError(*e);
  ResourceContext ctx{request, response, std::get<QueryParams>(query), key.workspace_id, db,
                      cursors, webhooks};
  if (wants_idempotency(request)) {
    return serve_idempotently(ctx, route, key.id, path, request.query());
  }
  return route.handle(ctx);
}

Checked<auth::AuthenticatedKey> ApiHandler::Impl::authenticate(const http::Request& request) {
  const std::string_view authorization = request.header("Authorization");
  auto result =
      authenticator.authenticate(authorization, request.peer_ip, request.header("X-Forwarded-For"));
  if (auto* ok = std::get_if<auth::AuthenticatedKey>(&result)) return std::move(*ok);
  switch (std::get<auth::AuthFailure>(result)) {
    case auth::AuthFailure::kMissingOrMalformed:
      return ApiError(ErrorKind::kMissingCredentials,
                      authorization.empty()
                          ? "missing API key: send the header Authorization: Bearer <key>"
                          : "malformed Authorization header: expected Bearer <key>");
    case auth::AuthFailure::kUnknownOrRevoked:
      return invalid_key();
    case auth::AuthFailure::kIpNotAllowed:
      break;
  }
  return ApiError(ErrorKind::kIpNotAllowed, "this API key may not be used from your IP address");
}

Outcome ApiHandler::Impl::admit(const domain::ApiKeyRecord& key, http::Response& response) {
  const auth::RateLimitDecision decision = limiter.acquire(key.id.value);
  if (decision.unavailable) {
    // Fail closed: without the shared window nobody can tell whether this key is over its
    // limit, and serving unlimited would let one key overrun every instance.
    return ApiError(ErrorKind::kLimiterUnavailable,
                    "rate limiter unavailable: cannot reach Redis; retry shortly");
  }
  add_rate_limit_headers(response, decision);
  if (decision.allowed) return kAnswered;
  ApiError error(ErrorKind::kRateLimited, "rate limit exceeded: at most " +
                                              std::to_string(decision.limit) + " requests per " +
                                              auth::window_text(decision.window_ms) +
                                              " for this API key; retry after " +
                                              std::to_string(decision.retry_after_s) + " s");
  error.retry_after_s = decision.retry_after_s;
  return error;
}

Outcome ApiHandler::Impl::check_scope(const domain::ApiKeyRecord& key, std::string_view method) {
  if (method == "GET") {
    if (key.scopes.has(domain::Scope::kRead)) return kAnswered;
    return ApiError(ErrorKind::kMissingScope,
                    "this API key lacks the 'read' scope needed for GET requests");
  }
  if (key.scopes.has(domain::Scope::kWrite)) return kAnswered;
  return ApiError(ErrorKind::kMissingScope,
                  "this API key lacks the 'write' scope needed for POST, PATCH and DELETE");
}

ApiHandler::ApiHandler(store::Database& db, auth::Authenticator& authenticator,
                       auth::RateLimiter& limiter, auth::UsageRecorder& usage,
                       WebhookRules webhooks)
    : impl_(new Impl{db, authenticator, limiter, usage, CursorCodec(db.cursor_secret()),
                     std::move(webhooks)}) {}

ApiHandler::~ApiHandler() = default;

void ApiHandler::handle(const http::Request& request, http::Response& response) {
  RequestFacts unused;
  handle(request, response, unused);
}

void ApiHandler::handle(const http::Request& request, http::Response& response,
                        RequestFacts& facts) {
  std::string request_id = request_id_for(request.header("X-Request-Id"));
  Outcome outcome;
  try {
    outcome = impl_->serve(request, response, facts);
  } catch (const store::StoreUnavailable& e) {
    facts.error = e.what();
    outcome = database_unavailable(request_id);
  } catch (const std::exception& e) {
    facts.error = e.what();
    outcome = internal_error(request_id);
  }
  if (outcome) render_error(*outcome, response);
  facts.request_id = request_id;
  response.headers.emplace_back("X-Request-Id", std::move(request_id));

  if (!facts.key_id.empty()) {
    try {
      // A key is known only once a route matched, so facts.route is that route's template.
      impl_->usage.record(facts.key_id, usage_endpoint(request.method, facts.route),
                          response.status);
    } catch (const std::exception& e) {
      facts.error = std::string("usage not recorded: ") + e.what();
    }
  }
}

http::Waiting ApiHandler::waiting(const http::Request& request) const {
  // A write waits for its commit, which concurrent writes share (group commit on SQLite, the
  // WAL flush on PostgreSQL). Reads stay on the I/O thread: a hop costs more than it hides.
  if (request.method == "GET" || request.method == "HEAD") return http::Waiting::kNever;
  return impl_->db.engine().writes_suspend() ? http::Waiting::kSuspending
                                             : http::Waiting::kBlocking;
}

void ApiHandler::render_refusal(const http::Refusal& refusal, const http::Request* head,
                                http::Response& response) {
  RequestFacts unused;
  render_refusal(refusal, head, response, unused);
}

void ApiHandler::render_refusal(const http::Refusal& refusal, const http::Request* head,
                                http::Response& response, RequestFacts& facts) {
  facts.request_id = request_id_for(head ? head->header("X-Request-Id") : std::string_view{});
  ApiError error = error_for(refusal, facts.request_id);
  render_error(error, response);
  response.headers.emplace_back("X-Request-Id", facts.request_id);
  facts.error = std::move(error.message);
}

}  // namespace leadline::api
