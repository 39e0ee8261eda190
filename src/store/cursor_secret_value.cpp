// OpenSSL's RAND_bytes: the secret must be unguessable, or cursors could be forged.
#include "store/cursor_secret_value.hpp"

#include <openssl/rand.h>

#include <array>
#include <stdexcept>

namespace leadline::store {

std::string new_cursor_secret() {
  std::array<unsigned char, 32> buf{};
  if (RAND_bytes(buf.data(), static_cast<int>(buf.size())) != 1) {
    throw std::runtime_error("cannot generate the cursor secret: RAND_bytes failed");
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (const unsigned char byte : buf) {
    out.push_back(kHex[byte >> 4]);
    out.push_back(kHex[byte & 0x0F]);
  }
  return out;
}

}  // namespace leadline::store
