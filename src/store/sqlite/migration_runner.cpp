// Version tracking lives in schema_version, created here so that it exists before the first
// migration runs.
#include "store/sqlite/migration_runner.hpp"

#include <string>

#include "domain/timestamp.hpp"
#include "store/pending_migrations.hpp"

namespace leadline::store::sqlite {

void apply_migrations(Connection& conn, const std::vector<Migration>& migrations) {
  Transaction tx(conn, Transaction::Kind::kWrite);
  conn.exec(
      "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, name TEXT NOT "
      "NULL, applied_at INTEGER NOT NULL) STRICT");
  std::int64_t current = 0;
  {
    auto q = conn.query("SELECT COALESCE(MAX(version), 0) FROM schema_version");
    q.step();
    current = q.int64(0);
  }
  for (const Migration& m : pending_migrations(migrations, current)) {
    conn.exec(std::string(m.sql));
    auto q = conn.query("INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)");
    q.bind_int(m.version).bind_text(m.name).bind_int(domain::now().unix_ms).run();
  }
  tx.commit();
}

}  // namespace leadline::store::sqlite
