#include "auth/secret_token.hpp"

#include <openssl/rand.h>

#include <array>
#include <stdexcept>

#include "auth/sha256_hex.hpp"

namespace leadline::auth {

std::string generate_secret_token() {
  std::array<unsigned char, kSecretTokenLength / 2> bytes{};
  if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) {
    throw std::runtime_error("RAND_bytes failed");
  }
  static constexpr std::string_view kHex = "0123456789abcdef";
  std::string token;
  token.reserve(kSecretTokenLength);
  for (const unsigned char b : bytes) {
    token.push_back(kHex[b >> 4]);
    token.push_back(kHex[b & 15]);
  }
  return token;
}

bool looks_like_secret_token(std::string_view token) {
  if (token.size() != kSecretTokenLength) return false;
  for (const char c : token) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

std::string secret_token_hash(std::string_view token) {
  return sha256_hex(token);
}

std::string csrf_token_for(std::string_view session_token) {
  std::string input = "leadline dashboard csrf\n";
  input.append(session_token);
  return sha256_hex(input);
}

}  // namespace leadline::auth
