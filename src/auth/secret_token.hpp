// The dashboard's bearer secrets: session ids and setup-link tokens. 256 random bits (OpenSSL's
// RAND_bytes) as 64 lowercase hex digits; the database keeps only their SHA-256.
#pragma once

#include <string>
#include <string_view>

namespace leadline::auth {

inline constexpr std::size_t kSecretTokenLength = 64;

std::string generate_secret_token();

// 64 lowercase hex digits: anything else is refused before it reaches the database.
bool looks_like_secret_token(std::string_view token);

// What the database stores and looks up.
std::string secret_token_hash(std::string_view token);

// The CSRF token of a session: derived from its id, so it needs no storage and is as
// unguessable as the id, yet the id (HttpOnly) never reaches the page's script.
std::string csrf_token_for(std::string_view session_token);

}  // namespace leadline::auth
