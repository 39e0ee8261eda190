// What makes two POSTs with one Idempotency-Key the same request (docs/api.md, "Idempotent
// requests"): method, path, query string as sent, and the body as a JSON value.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace leadline::api {

// The body's canonical JSON: objects with their members sorted by name, no white space,
// strings unescaped then escaped one way, numbers by value (1 and 1.0 are one number). Nothing
// when the body is not JSON.
std::optional<std::string> canonical_json(std::string_view body);

// Lower-case hex SHA-256 over the parts; equal exactly for requests that count as the same. A
// body that is not JSON counts byte for byte.
std::string request_fingerprint(std::string_view method, std::string_view path,
                                std::string_view query, std::string_view body);

}  // namespace leadline::api
