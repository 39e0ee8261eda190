// ON CONFLICT DO NOTHING makes the first instance's secret win when several start at once.
#include "store/postgres/cursor_secret.hpp"

#include <stdexcept>

#include "store/cursor_secret_value.hpp"

namespace leadline::store::postgres {

std::string load_or_create_cursor_secret(Connection& conn) {
  conn.query(
      "INSERT INTO meta (key, value) VALUES ('cursor_secret', $1) ON CONFLICT (key) DO NOTHING",
      Params().text(new_cursor_secret()));
  const Result r = conn.query("SELECT value FROM meta WHERE key = 'cursor_secret'");
  if (r.rows() != 1) throw std::runtime_error("meta.cursor_secret is missing");
  return r.text(0, 0);
}

}  // namespace leadline::store::postgres
