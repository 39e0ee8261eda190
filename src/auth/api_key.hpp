// API key material: generation from a CSPRNG, the stored SHA-256 hash, and the display prefix.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace leadline::auth {

inline constexpr std::string_view kKeyPrefix = "fc_live_";
inline constexpr std::size_t kKeyRandomLength = 40;

// "fc_live_" + 40 characters of [A-Za-z0-9], uniformly drawn (rejection sampling) from
// OpenSSL's RAND_bytes.
std::string generate_api_key();

// Lowercase hex SHA-256 of the whole key; the only form the database keeps.
std::string hash_api_key(std::string_view key);

// "fc_live_" + the first 4 random characters, shown in listings.
std::string display_prefix(std::string_view key);

// True when `key` has the exact shape of a key (prefix + 40 alphanumerics).
bool looks_like_api_key(std::string_view key);

// Extracts the key from an Authorization header value: scheme "Bearer" (any case), one or
// more spaces, then the token. Nothing when the header is malformed or uses another scheme.
std::optional<std::string_view> parse_bearer_token(std::string_view header_value);

// Constant-time equality for equal-length secrets.
bool constant_time_equals(std::string_view a, std::string_view b);

}  // namespace leadline::auth
