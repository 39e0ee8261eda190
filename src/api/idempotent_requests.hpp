// POSTs that carry an Idempotency-Key (docs/api.md, "Idempotent requests"): the key checked,
// the request run once with its answer stored in the same transaction, repeats answered from
// the store.
#pragma once

#include <string_view>

#include "api/resource_context.hpp"
#include "api/routes.hpp"
#include "domain/ids.hpp"

namespace leadline::api {

inline constexpr std::string_view kIdempotencyKeyHeader = "Idempotency-Key";

// Whether the request asks for it: a POST with the header (on other methods it is ignored).
bool wants_idempotency(const http::Request& request);

// Answers the request through `route` at most once per API key and key. `path` and `query` are
// the request target's parts.
Outcome serve_idempotently(ResourceContext& ctx, const Route& route,
                           const domain::ApiKeyId& api_key, std::string_view path,
                           std::string_view query);

}  // namespace leadline::api
