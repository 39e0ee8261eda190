// The one table from error kind to HTTP status and the headers that kind adds.
#include <array>
#include <string>

#include "api/errors.hpp"
#include "record_json/json_writer.hpp"

namespace leadline::api {

namespace {

enum class Extra {
  kNone,
  kBearerChallenge,   // WWW-Authenticate: Bearer
  kAllow,             // Allow: <error.allow>
  kRetryAfter,        // Retry-After: <error.retry_after_s>
  kRetryAfterSecond,  // Retry-After: 1 (what stands in the way is expected to pass soon)
  kClose,             // the connection closes after this answer
};

struct Rule {
  ErrorKind kind;
  unsigned status;
  Extra extra;
};

// In the order of ErrorKind; checked below.
constexpr std::array kTable{
    Rule{ErrorKind::kInvalidRequest, 400, Extra::kNone},
    Rule{ErrorKind::kStateRefuses, 400, Extra::kNone},
    Rule{ErrorKind::kMalformedHttp, 400, Extra::kClose},
    Rule{ErrorKind::kMissingCredentials, 401, Extra::kBearerChallenge},
    Rule{ErrorKind::kInvalidCredentials, 401, Extra::kBearerChallenge},
    // A session, not a bearer token, is what the dashboard asks for: no challenge.
    Rule{ErrorKind::kNotSignedIn, 401, Extra::kNone},
    Rule{ErrorKind::kIpNotAllowed, 403, Extra::kNone},
    Rule{ErrorKind::kMissingScope, 403, Extra::kNone},
    Rule{ErrorKind::kCrossSiteRequest, 403, Extra::kNone},
    Rule{ErrorKind::kNoRoute, 404, Extra::kNone},
    Rule{ErrorKind::kRecordNotFound, 404, Extra::kNone},
    Rule{ErrorKind::kMethodNotAllowed, 405, Extra::kAllow},
    Rule{ErrorKind::kDuplicateEmail, 409, Extra::kNone},
    Rule{ErrorKind::kIdempotencyKeyBusy, 409, Extra::kRetryAfterSecond},
    Rule{ErrorKind::kBodyTooLarge, 413, Extra::kClose},
    Rule{ErrorKind::kIdempotencyKeyReused, 422, Extra::kNone},
    Rule{ErrorKind::kRateLimited, 429, Extra::kRetryAfter},
    Rule{ErrorKind::kSignInThrottled, 429, Extra::kRetryAfter},
    Rule{ErrorKind::kHeadersTooLarge, 431, Extra::kClose},
    Rule{ErrorKind::kInternal, 500, Extra::kNone},
    Rule{ErrorKind::kOverConnectionLimit, 503, Extra::kClose},
    Rule{ErrorKind::kLimiterUnavailable, 503, Extra::kRetryAfterSecond},
    Rule{ErrorKind::kDatabaseUnavailable, 503, Extra::kRetryAfterSecond},
};

constexpr bool table_in_kind_order() {
  for (std::size_t i = 0; i < kTable.size(); ++i) {
    if (static_cast<std::size_t>(kTable[i].kind) != i) return false;
  }
  return kTable.back().kind == ErrorKind::kDatabaseUnavailable;
}
static_assert(table_in_kind_order(), "kTable must list every ErrorKind, in order");

}  // namespace

ApiError method_not_allowed(std::string_view method, std::string_view allow) {
  ApiError error(
      ErrorKind::kMethodNotAllowed,
      "method " + std::string(method) + " is not allowed here; allowed: " + std::string(allow));
  error.allow = allow;
  return error;
}

ApiError internal_error(std::string_view request_id) {
  return {ErrorKind::kInternal, "internal error (request id " + std::string(request_id) + ")"};
}

ApiError database_unavailable(std::string_view request_id) {
  // Not a fault of this server or request: the pool reconnects by itself, so: retry.
  return {ErrorKind::kDatabaseUnavailable,
          "database unavailable (request id " + std::string(request_id) + "); retry shortly"};
}

ApiError error_for(const http::Refusal& refusal, std::string_view request_id) {
  switch (refusal.kind) {
    case http::RefusalKind::kHeadersTooLarge:
      return {ErrorKind::kHeadersTooLarge, "request header fields are larger than the limit of " +
                                               std::to_string(refusal.limit) + " bytes"};
    case http::RefusalKind::kBodyTooLarge:
      return {ErrorKind::kBodyTooLarge, "request body is larger than the limit of " +
                                            std::to_string(refusal.limit) + " bytes"};
    case http::RefusalKind::kOverConnectionLimit:
      return {ErrorKind::kOverConnectionLimit, "server is at its connection limit"};
    case http::RefusalKind::kHandlerFailed:
      return internal_error(request_id);
    case http::RefusalKind::kMalformedRequest:
      break;
  }
  return {ErrorKind::kMalformedHttp, "malformed HTTP request"};
}

void render_error(const ApiError& error, http::Response& response) {
  const Rule& rule = kTable[static_cast<std::size_t>(error.kind)];
  response.status = rule.status;
  switch (rule.extra) {
    case Extra::kBearerChallenge:
      response.headers.emplace_back("WWW-Authenticate", "Bearer");
      break;
    case Extra::kAllow:
      response.headers.emplace_back("Allow", error.allow);
      break;
    case Extra::kRetryAfter:
      response.headers.emplace_back("Retry-After", std::to_string(error.retry_after_s));
      break;
    case Extra::kRetryAfterSecond:
      response.headers.emplace_back("Retry-After", "1");
      break;
    case Extra::kClose:
      response.close = true;
      break;
    case Extra::kNone:
      break;
  }
  response.body.clear();
  record_json::JsonWriter w(response.body);
  w.begin_object().field("success", false).field("error", error.message);
  if (error.conflicting_id) {
    w.key("data").begin_object().field("id", *error.conflicting_id).end_object();
  }
  w.end_object();
}

}  // namespace leadline::api
