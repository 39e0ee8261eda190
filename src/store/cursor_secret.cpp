// OpenSSL's RAND_bytes: the secret must be unguessable, or cursors could be forged. The INSERT
// that does nothing on conflict makes the first instance's secret win.
#include "store/cursor_secret.hpp"

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

std::string load_or_create_cursor_secret(sql::Connection& conn) {
  conn.execute(
      "INSERT INTO meta (key, value) VALUES ('cursor_secret', ?) ON CONFLICT (key) DO NOTHING",
      sql::Params().text(new_cursor_secret()));
  auto row = conn.query("SELECT value FROM meta WHERE key = 'cursor_secret'");
  if (!row.next()) throw std::runtime_error("meta.cursor_secret is missing");
  return row.text(0);
}

}  // namespace leadline::store
