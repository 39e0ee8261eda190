// HMAC-SHA256 through OpenSSL 3's EVP_MAC (nothing deprecated): what signs list cursors and
// webhook attempts.
#pragma once

#include <array>
#include <initializer_list>
#include <string_view>

namespace leadline::auth {

// HMAC-SHA256 under `key` of `parts` fed in turn, as if concatenated (no joined copy is made).
std::array<unsigned char, 32> hmac_sha256(std::string_view key,
                                          std::initializer_list<std::string_view> parts);

}  // namespace leadline::auth
