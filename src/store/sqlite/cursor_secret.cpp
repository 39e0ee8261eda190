// INSERT OR IGNORE makes the first opener's secret win when several open a fresh database.
#include "store/sqlite/cursor_secret.hpp"

#include <stdexcept>

#include "store/cursor_secret_value.hpp"

namespace leadline::store::sqlite {

std::string load_or_create_cursor_secret(Connection& conn) {
  Transaction tx(conn, Transaction::Kind::kWrite);
  {
    auto q = conn.query("INSERT OR IGNORE INTO meta (key, value) VALUES ('cursor_secret', ?)");
    q.bind_text(new_cursor_secret()).run();
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
