// INSERT OR IGNORE makes the first opener's secret win when several open a fresh database.
#include "store/sqlite/cursor_secret.hpp"

#include <openssl/rand.h>

#include <array>
#include <stdexcept>

namespace leadline::store::sqlite {

namespace {

std::string random_hex(std::size_t bytes) {
  std::array<unsigned char, 64> buf{};
  if (bytes > buf.size() || RAND_bytes(buf.data(), static_cast<int>(bytes)) != 1) {
    throw std::runtime_error("cannot generate the cursor secret: RAND_bytes failed");
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < bytes; ++i) {
    out.push_back(kHex[buf[i] >> 4]);
    out.push_back(kHex[buf[i] & 0x0F]);
  }
  return out;
}

}  // namespace

std::string load_or_create_cursor_secret(Connection& conn) {
  Transaction tx(conn, Transaction::Kind::kWrite);
  {
    auto q = conn.query("INSERT OR IGNORE INTO meta (key, value) VALUES ('cursor_secret', ?)");
    q.bind_text(random_hex(32)).run();
  }
  std::string secret;
  {
    auto q = conn.query("SELECT value FROM meta WHERE key = 'cursor_secret'");
    if (!q.step()) throw std::runtime_error("meta.cursor_secret is missing");
    secret = q.text(0);
  }
  tx.commit();
  return secret;
}

}  // namespace leadline::store::sqlite
