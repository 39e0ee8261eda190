// The Idempotency-Key header's value, checked once at the edge (docs/api.md, "Idempotent
// requests").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace leadline::domain {

inline constexpr std::size_t kMaxIdempotencyKeyLength = 255;
// How long a key and its stored answer live from the first request that used it.
inline constexpr std::int64_t kIdempotencyKeyLifetimeMs = 24LL * 60 * 60 * 1000;

// 1 to 255 characters, each printable ASCII (0x21 to 0x7E): opaque to the server.
struct IdempotencyKey {
  std::string value;
};

// The key, or nothing when the value breaks the rule above.
std::optional<IdempotencyKey> parse_idempotency_key(std::string_view header_value);

}  // namespace leadline::domain
