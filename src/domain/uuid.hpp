// UUID parsing (any case, canonical 8-4-4-4-12 form) and version 7 generation.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace leadline::domain {

// Returns the canonical lowercase form, or nothing when `text` is not a UUID.
std::optional<std::string> parse_uuid(std::string_view text);

// A fresh UUIDv7 (RFC 9562): 48-bit Unix milliseconds, a 16-bit counter that orders the ids
// this process draws within one millisecond, then CSPRNG bits; lowercase.
std::string new_uuid_v7(std::int64_t unix_ms);
std::string new_uuid_v7();

}  // namespace leadline::domain
