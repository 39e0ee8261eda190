// The advisory lock is taken before schema_migrations is even created: the second starter
// waits for the first one's commit and then finds every migration applied.
#include "store/postgres/migration_runner.hpp"

#include <string>

#include "domain/timestamp.hpp"
#include "store/pending_migrations.hpp"

namespace leadline::store::postgres {

namespace {

// Any fixed number shared by every leadline build; "leadline" in ASCII.
constexpr const char* kLockKey = "7308604896046739045";

}  // namespace

void apply_migrations(Connection& conn, const std::vector<Migration>& migrations) {
  Transaction tx(conn, Transaction::Kind::kWrite);
  conn.exec(std::string("SELECT pg_advisory_xact_lock(") + kLockKey + ")");
  conn.exec(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, "
      "name TEXT NOT NULL, applied_at BIGINT NOT NULL)");
  const std::int64_t current =
      conn.query("SELECT COALESCE(MAX(version), 0) FROM schema_migrations").int64(0, 0);
  for (const Migration& m : pending_migrations(migrations, current)) {
    conn.exec(std::string(m.sql));
    conn.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
               Params().int64(m.version).text(m.name).int64(domain::now().unix_ms));
  }
  tx.commit();
}

}  // namespace leadline::store::postgres
