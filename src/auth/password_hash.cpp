#include "auth/password_hash.hpp"

#include <sodium.h>

#include <mutex>
#include <stdexcept>

namespace leadline::auth {

namespace {

// OWASP's Password Storage Cheat Sheet: Argon2id, m = 19 MiB, t = 2, p = 1 (libsodium uses one
// lane). More memory would make every sign-in, and a flood of them, cost more of the server.
constexpr unsigned long long kPasses = 2;
constexpr std::size_t kMemoryBytes = 19u * 1024 * 1024;

void ensure_sodium() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (sodium_init() < 0) throw std::runtime_error("libsodium could not be initialised");
  });
}

}  // namespace

std::string hash_password(std::string_view password) {
  ensure_sodium();
  char out[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str_alg(out, password.data(), password.size(), kPasses, kMemoryBytes,
                            crypto_pwhash_ALG_ARGON2ID13) != 0) {
    throw std::runtime_error("password hashing ran out of memory");
  }
  return out;
}

bool verify_password(std::string_view password, const std::string& stored) {
  ensure_sodium();
  return crypto_pwhash_str_verify(stored.c_str(), password.data(), password.size()) == 0;
}

void spend_one_verification(std::string_view password) {
  static const std::string dummy = hash_password("leadline: no such user");
  verify_password(password, dummy);
}

}  // namespace leadline::auth
