// The version table is created under the migration lock, so a second migrator waits for the
// first one's commit and then finds every migration applied.
#include "store/schema/migration_runner.hpp"

#include <string>

#include "store/lead_store.hpp"
#include "store/schema/pending_migrations.hpp"
#include "store/sql/dialect.hpp"

namespace leadline::store {

namespace {

// What a migration's SQL cannot write itself, run right after it in the same transaction: the
// leads' list-item JSON is leadline's own rendering (SQLite's JSON functions write numbers
// otherwise).
void follow_up(sql::Connection& conn, const Migration& m) {
  if (m.name.ends_with("_lead_item_json")) fill_missing_lead_items(conn);
}

}  // namespace

void apply_migrations(sql::Connection& conn, const std::vector<Migration>& migrations,
                      domain::Timestamp now) {
  const sql::Dialect& dialect = conn.dialect();
  if (!dialect.migration_lock().empty()) conn.execute_script(std::string(dialect.migration_lock()));
  conn.execute_script(std::string(dialect.migration_table_definition()));
  const std::string table(dialect.migration_table());
  std::int64_t version = 0;
  {
    // Released before the migrations run: SQLite refuses to drop what an open statement reads.
    auto current = conn.query("SELECT COALESCE(MAX(version), 0) FROM " + table);
    current.next();
    version = current.int64(0);
  }
  for (const Migration& m : pending_migrations(migrations, version)) {
    conn.execute_script(std::string(m.sql));
    follow_up(conn, m);
    conn.execute("INSERT INTO " + table + " (version, name, applied_at) VALUES (?, ?, ?)",
                 sql::Params().int64(m.version).text(m.name).int64(now.unix_ms));
  }
}

}  // namespace leadline::store
