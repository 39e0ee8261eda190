// SHA-256 (OpenSSL), raw and as lower-case hex: how API keys are stored, and how the API
// fingerprints an idempotent request and binds a cursor to its query.
#pragma once

#include <array>
#include <string>
#include <string_view>

namespace leadline::auth {

std::array<unsigned char, 32> sha256(std::string_view data);

std::string sha256_hex(std::string_view data);

}  // namespace leadline::auth
