// Uniform alphanumerics from RAND_bytes.
#include "auth/random_text.hpp"

#include <openssl/rand.h>

#include <array>
#include <stdexcept>
#include <string_view>

namespace leadline::auth {

namespace {

constexpr std::string_view kAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
static_assert(kAlphabet.size() == 62);

// 248 = 4 * 62: bytes at or above it are rejected so every character is equally likely.
constexpr unsigned kAcceptBelow = 256 - 256 % kAlphabet.size();

}  // namespace

std::string random_alphanumeric(std::size_t length) {
  std::string text;
  text.reserve(length);
  std::array<unsigned char, 64> pool{};
  while (text.size() < length) {
    if (RAND_bytes(pool.data(), static_cast<int>(pool.size())) != 1) {
      throw std::runtime_error("RAND_bytes failed");
    }
    for (const unsigned char b : pool) {
      if (b >= kAcceptBelow) continue;
      text.push_back(kAlphabet[b % kAlphabet.size()]);
      if (text.size() == length) break;
    }
  }
  return text;
}

std::string generate_password() {
  return random_alphanumeric(kGeneratedPasswordLength);
}

}  // namespace leadline::auth
