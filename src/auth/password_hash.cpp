#include "auth/password_hash.hpp"

#include <sodium.h>

#include <algorithm>
#include <mutex>
#include <semaphore>
#include <stdexcept>
#include <thread>

namespace leadline::auth {

namespace {

// OWASP's Password Storage Cheat Sheet: Argon2id, m = 19 MiB, t = 2, p = 1 (libsodium uses one
// lane). More memory would make every sign-in, and a flood of them, cost more of the server.
constexpr unsigned long long kPasses = 2;
constexpr std::size_t kMemoryBytes = 19u * 1024 * 1024;

// Each hash holds 19 MiB for its duration: a flood of sign-ins waits its turn here rather than
// multiplying that by the blocking pool's 64 threads. One per core keeps every core busy.
std::counting_semaphore<>& hashing_slots() {
  static std::counting_semaphore<> slots(std::max(1u, std::thread::hardware_concurrency()));
  return slots;
}

struct HashingSlot {
  HashingSlot() { hashing_slots().acquire(); }
  ~HashingSlot() { hashing_slots().release(); }
  HashingSlot(const HashingSlot&) = delete;
  HashingSlot& operator=(const HashingSlot&) = delete;
};

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
  const HashingSlot slot;
  if (crypto_pwhash_str_alg(out, password.data(), password.size(), kPasses, kMemoryBytes,
                            crypto_pwhash_ALG_ARGON2ID13) != 0) {
    throw std::runtime_error("password hashing ran out of memory");
  }
  return out;
}

bool verify_password(std::string_view password, const std::string& stored) {
  ensure_sodium();
  const HashingSlot slot;
  return crypto_pwhash_str_verify(stored.c_str(), password.data(), password.size()) == 0;
}

void spend_one_verification(std::string_view password) {
  static const std::string dummy = hash_password("leadline: no such user");
  verify_password(password, dummy);
}

}  // namespace leadline::auth
