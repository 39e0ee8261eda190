// Dashboard passwords, stored only as Argon2id strings (libsodium's crypto_pwhash_str) with the
// OWASP minimum cost: 19 MiB and 2 passes. A verification costs the same whether or not the
// user exists (verify_password_or_dummy), so timing does not tell which e-mails are registered.
#pragma once

#include <string>
#include <string_view>

namespace leadline::auth {

// The "$argon2id$v=19$m=…" string to store. Throws std::runtime_error when libsodium cannot
// (out of memory).
std::string hash_password(std::string_view password);

// True when `password` matches `stored`; false for a stored string that is not a hash.
bool verify_password(std::string_view password, const std::string& stored);

// Spends one verification's time against a fixed hash: what a sign-in for an unknown e-mail does.
void spend_one_verification(std::string_view password);

}  // namespace leadline::auth
