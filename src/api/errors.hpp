// The API's one error vocabulary: every way a request can fail, as a value. Resources, the
// handler's order of checks, the HTTP layer's refusals and the admin listener all end in an
// ApiError; render_error (error_table.cpp) is the one place that turns a kind into its status,
// headers and envelope. The sentences are the contract's (docs/api.md, "Errors").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "api/decoded.hpp"
#include "http/refusal.hpp"
#include "http/request.hpp"

namespace leadline::api {

enum class ErrorKind {
  kInvalidRequest,        // a parameter, header or body the client got wrong (BadRequest)
  kStateRefuses,          // valid, but refused by what the workspace holds now (a 17th webhook)
  kMalformedHttp,         // not valid HTTP/1.1
  kMissingCredentials,    // no usable Authorization header
  kInvalidCredentials,    // unknown or revoked key
  kNotSignedIn,           // the dashboard: no live session, or a failed sign-in
  kIpNotAllowed,          // the key's IP whitelist excludes the client
  kMissingScope,          // the key lacks the scope the method needs
  kCrossSiteRequest,      // the dashboard: a state change from another site or without its token
  kNoRoute,               // no endpoint at the path
  kRecordNotFound,        // no such record in the key's workspace
  kMethodNotAllowed,      // the path exists, the method does not
  kDuplicateEmail,        // a contact of the workspace already has the e-mail
  kIdempotencyKeyBusy,    // the first request with the Idempotency-Key is still running
  kBodyTooLarge,          // over the body limit
  kIdempotencyKeyReused,  // the Idempotency-Key was used with a different request
  kRateLimited,           // over the key's rate limit
  kSignInThrottled,       // the dashboard: too many failed sign-ins for the address
  kHeadersTooLarge,       // over the header limit
  kInternal,              // a failure of this server; the sentence names only the request id
  kOverConnectionLimit,   // the server is at its connection limit
  kLimiterUnavailable,    // the shared rate limiter (Redis) cannot be reached
  kDatabaseUnavailable,   // the database cannot be reached
};

struct ApiError {
  ApiError(ErrorKind k, std::string m) : kind(k), message(std::move(m)) {}
  // A decoder's 400 is an ApiError like any other.
  ApiError(BadRequest bad)  // NOLINT(google-explicit-constructor)
      : kind(ErrorKind::kInvalidRequest), message(std::move(bad.message)) {}

  ErrorKind kind;
  std::string message;
  // What some kinds carry into their headers or body.
  std::string allow;                          // kMethodNotAllowed: the Allow header
  std::int64_t retry_after_s = 0;             // kRateLimited, kSignInThrottled: Retry-After
  std::optional<std::string> conflicting_id;  // kDuplicateEmail: data.id
};

// A value, or the error that stands in its way.
template <class T>
using Checked = std::variant<T, ApiError>;

template <class T>
const ApiError* failed(const Checked<T>& c) {
  return std::get_if<ApiError>(&c);
}

// What a step of the request pipeline or a resource operation ends with: nothing when it has
// written its answer into the response, else the error to answer with.
using Outcome = std::optional<ApiError>;
inline constexpr std::nullopt_t kAnswered = std::nullopt;

// 405 for a known path: a sentence naming the method and the allowed ones, and the Allow header.
ApiError method_not_allowed(std::string_view method, std::string_view allow);

// A failure of this server, or of its database: the sentence names only the request id, which
// finds the cause in the log.
ApiError internal_error(std::string_view request_id);
ApiError database_unavailable(std::string_view request_id);

// The HTTP layer's refusal in the vocabulary, worded.
ApiError error_for(const http::Refusal& refusal, std::string_view request_id);

// Status, headers and the {success:false,error} envelope (with data.id for kDuplicateEmail).
void render_error(const ApiError& error, http::Response& response);

}  // namespace leadline::api
