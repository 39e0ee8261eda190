// Generated ids use a per-thread PRNG seeded from the CSPRNG: unique enough for correlation,
// and no lock or syscall per request.
#include "api/request_id.hpp"

#include <openssl/rand.h>

#include <random>

namespace leadline::api {

bool is_acceptable_request_id(std::string_view id) {
  if (id.empty() || id.size() > 128) return false;
  for (char c : id) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

std::string generate_request_id() {
  static constexpr char kAlphabet[] =
      "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  thread_local std::mt19937_64 rng = [] {
    std::uint64_t seed = 0;
    RAND_bytes(reinterpret_cast<unsigned char*>(&seed), sizeof seed);
    return std::mt19937_64(seed);
  }();
  std::string id = "req_";
  std::uint64_t bits = rng();
  int left = 10;
  for (int i = 0; i < 24; ++i) {
    if (left == 0) {
      bits = rng();
      left = 10;
    }
    id.push_back(kAlphabet[bits % 62]);
    bits /= 62;
    --left;
  }
  return id;
}

std::string request_id_for(std::string_view supplied) {
  return is_acceptable_request_id(supplied) ? std::string(supplied) : generate_request_id();
}

}  // namespace leadline::api
