// Lower-case hex SHA-256 (OpenSSL): how API keys are stored, and how the API fingerprints an
// idempotent request.
#pragma once

#include <string>
#include <string_view>

namespace leadline::auth {

std::string sha256_hex(std::string_view data);

}  // namespace leadline::auth
