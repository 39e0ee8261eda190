// The request pipeline in the contract's order: route (404/405) -> authenticate (401) -> IP
// whitelist (403) -> rate limit (429, or 503 when the shared limiter is unreachable) -> scope
// (403) -> validation (400) -> operation. An unreachable database becomes a 503; anything else
// thrown below becomes a 500 that names only the request id (the caller logs the failure).
#include "api/api_handler.hpp"

#include <string>

#include "api/cursor_codec.hpp"
#include "api/envelope.hpp"
#include "api/query_params.hpp"
#include "api/reference_pages.hpp"
#include "api/request_id.hpp"
#include "api/resource_context.hpp"
#include "api/route_table.hpp"

namespace leadline::api {

struct ApiHandler::Impl {
  store::Store& store;
  auth::Authenticator& authenticator;
  auth::RateLimiter& limiter;
  auth::UsageRecorder& usage;
  CursorCodec cursors;

  // Fills `response`; returns the key id when the request is attributable to a key (it passed
  // authentication), so that usage can be recorded.
  std::optional<std::string> serve(const http::Request& request, http::Response& response,
                                   RequestFacts& facts);
};

namespace {

void add_rate_limit_headers(http::Response& response, const auth::RateLimitDecision& d) {
  response.headers.emplace_back("X-RateLimit-Limit", std::to_string(d.limit));
  response.headers.emplace_back("X-RateLimit-Remaining", std::to_string(d.remaining));
  response.headers.emplace_back("X-RateLimit-Reset", std::to_string(d.reset_unix_s));
}

unsigned required_scope(std::string_view method) {
  return static_cast<unsigned>(method == "GET" ? store::Scope::kRead : store::Scope::kWrite);
}

}  // namespace

std::optional<std::string> ApiHandler::Impl::serve(const http::Request& request,
                                                   http::Response& response, RequestFacts& facts) {
  const std::string_view target = request.target;
  const std::size_t question = target.find('?');
  const std::string_view path = target.substr(0, question);
  const std::string_view query_text =
      question == std::string_view::npos ? std::string_view{} : target.substr(question + 1);

  if (const std::string_view label = serve_reference(path, request, response); !label.empty()) {
    facts.route = label;
    return std::nullopt;
  }
  const auto route = find_route(path);
  if (!route) {
    respond_error(response, 404, unknown_path_message(path));
    return std::nullopt;
  }
  facts.route = route_template(*route);
  if (!method_allowed(*route, request.method)) {
    respond_method_not_allowed(response, request.method, route->allow);
    return std::nullopt;
  }

  const std::string_view authorization = request.header("Authorization");
  const auto auth =
      authenticator.authenticate(authorization, request.peer_ip, request.header("X-Forwarded-For"));
  if (const auto* failure = std::get_if<auth::AuthFailure>(&auth)) {
    switch (*failure) {
      case auth::AuthFailure::kMissingOrMalformed:
        response.headers.emplace_back("WWW-Authenticate", "Bearer");
        respond_error(response, 401,
                      authorization.empty()
                          ? "missing API key: send the header Authorization: Bearer <key>"
                          : "malformed Authorization header: expected Bearer <key>");
        return std::nullopt;
      case auth::AuthFailure::kUnknownOrRevoked:
        response.headers.emplace_back("WWW-Authenticate", "Bearer");
        respond_error(response, 401, "invalid or revoked API key");
        return std::nullopt;
      case auth::AuthFailure::kIpNotAllowed:
        break;
    }
    respond_error(response, 403, "this API key may not be used from your IP address");
    return std::nullopt;
  }
  const store::ApiKeyRecord& key = std::get<auth::AuthenticatedKey>(auth).key;
  facts.key_id = key.id.value;
  facts.workspace_id = key.workspace_id.value;

  const auth::RateLimitDecision decision = limiter.acquire(key.id.value);
  if (decision.unavailable) {
    // Fail closed: without the shared window nobody can tell whether this key is over its
    // limit, and serving unlimited would let one key overrun every instance.
    response.headers.emplace_back("Retry-After", "1");
    respond_error(response, 503, "rate limiter unavailable: cannot reach Redis; retry shortly");
    return key.id.value;
  }
  add_rate_limit_headers(response, decision);
  if (!decision.allowed) {
    response.headers.emplace_back("Retry-After", std::to_string(decision.retry_after_s));
    respond_error(response, 429,
                  "rate limit exceeded: at most " + std::to_string(decision.limit) +
                      " requests per " + auth::window_text(decision.window_ms) +
                      " for this API key; retry after " + std::to_string(decision.retry_after_s) +
                      " s");
    return key.id.value;
  }

  const unsigned scope = required_scope(request.method);
  if ((key.scopes & scope) == 0) {
    respond_error(response, 403,
                  scope == static_cast<unsigned>(store::Scope::kRead)
                      ? "this API key lacks the 'read' scope needed for GET requests"
                      : "this API key lacks the 'write' scope needed for POST, PATCH and DELETE");
    return key.id.value;
  }

  auto query = QueryParams::parse(query_text);
  if (const auto* e = failed(query)) {
    respond_error(response, 400, e->message);
    return key.id.value;
  }
  ResourceContext ctx{request,          response, std::get<QueryParams>(query),
                      key.workspace_id, store,    cursors};
  switch (route->resource) {
    case Resource::kLeads:
      handle_leads(ctx);
      break;
    case Resource::kContacts:
      handle_contacts(ctx);
      break;
    case Resource::kConversations:
      handle_conversations(ctx);
      break;
  }
  return key.id.value;
}

ApiHandler::ApiHandler(store::Store& store, auth::Authenticator& authenticator,
                       auth::RateLimiter& limiter, auth::UsageRecorder& usage)
    : impl_(new Impl{store, authenticator, limiter, usage, CursorCodec(store.cursor_secret())}) {}

ApiHandler::~ApiHandler() = default;

void ApiHandler::handle(const http::Request& request, http::Response& response) {
  RequestFacts unused;
  handle(request, response, unused);
}

void ApiHandler::handle(const http::Request& request, http::Response& response,
                        RequestFacts& facts) {
  std::string request_id = request_id_for(request.header("X-Request-Id"));

  std::optional<std::string> key_id;
  try {
    key_id = impl_->serve(request, response, facts);
  } catch (const store::StoreUnavailable& e) {
    // Not a fault of this server or request: the database is down or unreachable, and the pool
    // reconnects by itself, so the client is told to retry.
    facts.error = e.what();
    response.headers.emplace_back("Retry-After", "1");
    respond_error(response, 503,
                  "database unavailable (request id " + request_id + "); retry shortly");
  } catch (const std::exception& e) {
    facts.error = e.what();
    respond_error(response, 500, "internal error (request id " + request_id + ")");
  }
  facts.request_id = request_id;
  response.headers.emplace_back("X-Request-Id", std::move(request_id));

  if (key_id) {
    const std::size_t question = request.target.find('?');
    const std::string_view path = request.target.substr(0, question);
    std::string endpoint(request.method);
    endpoint.append(" ").append(path.substr(path.rfind('/')));
    try {
      impl_->usage.record(*key_id, endpoint, response.status);
    } catch (const std::exception& e) {
      facts.error = std::string("usage not recorded: ") + e.what();
    }
  }
}

bool ApiHandler::may_wait(const http::Request& request) const {
  // A write waits for its commit, which concurrent writes share (group commit on SQLite, the
  // WAL flush on PostgreSQL). Reads stay on the I/O thread: a hop costs more than it hides.
  return request.method != "GET" && request.method != "HEAD";
}

void ApiHandler::render_refusal(unsigned status, std::string_view reason, const http::Request* head,
                                http::Response& response) {
  std::string request_id = request_id_for(head ? head->header("X-Request-Id") : std::string_view{});
  if (status >= 500 && status != 503) {
    // The one sentence a 500 may say, with the id that finds the failure in the log.
    respond_error(response, status, std::string(reason) + " (request id " + request_id + ")");
  } else {
    respond_error(response, status, reason);
  }
  response.headers.emplace_back("X-Request-Id", std::move(request_id));
}

}  // namespace leadline::api
