// The resource runs inside the store's idempotent write: whatever it changes joins the
// transaction that stores its answer.
#include "api/idempotent_requests.hpp"

#include <type_traits>
#include <variant>

#include "api/request_fingerprint.hpp"
#include "domain/idempotency_key.hpp"

namespace leadline::api {

namespace {

// The answers of an operation that ran: anything below 500 but the 400 of a request that failed
// validation, which (like the 401, 403 and 429 before it) never reached the operation. A 400
// the operation gives (kStateRefuses) is its answer, and kept.
bool kept_with_key(const Outcome& refused, unsigned status) {
  if (refused && refused->kind == ErrorKind::kInvalidRequest) return false;
  return status < 500;
}

}  // namespace

bool wants_idempotency(const http::Request& request) {
  return request.method == "POST" && request.has_header(kIdempotencyKeyHeader);
}

Outcome serve_idempotently(ResourceContext& ctx, const Route& route,
                           const domain::ApiKeyId& api_key, std::string_view path,
                           std::string_view query) {
  auto key = domain::parse_idempotency_key(ctx.request.header(kIdempotencyKeyHeader));
  if (!key) {
    return BadRequest{"Idempotency-Key must be 1 to 255 printable ASCII characters (0x21 to 0x7E)"};
  }
  const store::IdempotentRequest request{
      api_key, std::move(*key),
      request_fingerprint(ctx.request.method, path, query, ctx.request.body)};
  http::Response& response = ctx.response;
  // The operation may run again when PostgreSQL retries its transaction: each run starts from
  // the headers the request had before it.
  const std::size_t headers_before = response.headers.size();
  auto outcome =
      ctx.db.idempotency().run_once(request, [&]() -> std::optional<store::StoredAnswer> {
        response.headers.resize(headers_before);
        const Outcome refused = route.handle(ctx);
        if (refused) render_error(*refused, response);
        if (!kept_with_key(refused, response.status)) return std::nullopt;
        return store::StoredAnswer{response.status, response.body};
      });
  return std::visit(
      [&](auto& o) -> Outcome {
        using O = std::decay_t<decltype(o)>;
        if constexpr (std::is_same_v<O, store::Replayed>) {
          response.status = o.answer.status;
          response.body = std::move(o.answer.body);
          response.headers.emplace_back("Idempotent-Replayed", "true");
          return kAnswered;
        } else if constexpr (std::is_same_v<O, store::KeyUsedForAnotherRequest>) {
          return ApiError(ErrorKind::kIdempotencyKeyReused,
                          "Idempotency-Key was already used with a different request");
        } else if constexpr (std::is_same_v<O, store::KeyBusy>) {
          return ApiError(ErrorKind::kIdempotencyKeyBusy,
                          "A request with this Idempotency-Key is still in progress");
        } else {
          return kAnswered;  // the operation's own answer is in the response
        }
      },
      outcome);
}

}  // namespace leadline::api
