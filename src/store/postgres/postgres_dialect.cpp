// Substring search is LIKE on the folded columns, which pg_trgm GIN indexes serve; see
// docs/design.md (Storage, PostgreSQL).
#include "store/postgres/postgres_dialect.hpp"

#include "store/records/json_string_array.hpp"
#include "store/sql/connection.hpp"
#include "store/sql/list_statements.hpp"

namespace leadline::store::postgres {

namespace {

// Any fixed number shared by every leadline build; "leadline" in ASCII.
constexpr std::string_view kMigrationLock = "SELECT pg_advisory_xact_lock(7308604896046739045)";

class PostgresDialect final : public sql::Dialect {
 public:
  bool nulls_last_keyword() const override { return true; }

  // Statistics (autovacuum's ANALYZE) and plans made for each execution's values
  // (plan_cache_mode = force_custom_plan) let the planner weigh a filter's index against the
  // sort's.
  std::string read_through_index(std::string_view) const override { return {}; }

  std::string lock_rows(std::string_view alias) const override {
    if (alias.empty()) return " FOR UPDATE";
    return " FOR UPDATE OF " + std::string(alias);
  }

  std::string claim_rows(std::string_view alias) const override {
    return " FOR UPDATE OF " + std::string(alias) + " SKIP LOCKED";
  }

  // An event is settled when every transaction with a smaller id has ended: below the oldest
  // transaction the snapshot sees running (or below xmax, when none runs), nothing can still
  // commit an event ahead of it. Transactions that provably belong to another database of the
  // cluster are passed over (pg_stat_activity names their database; backend_xid is the 32-bit
  // form of the xid8); one the view cannot place, e.g. of another role, still counts.
  std::string feed_settled(std::string_view alias) const override {
    return std::string(alias) +
           ".tx < (SELECT COALESCE(MIN(x::text::bigint), "
           "pg_snapshot_xmax(pg_current_snapshot())::text::bigint) "
           "FROM pg_snapshot_xip(pg_current_snapshot()) AS x WHERE NOT EXISTS ("
           "SELECT 1 FROM pg_stat_activity a WHERE a.datname <> current_database() "
           "AND a.backend_xid::text::bigint = x::text::bigint % 4294967296))";
  }

  // A transaction-scoped advisory lock on the text's 64-bit hash, seeded apart from the
  // migration lock's number. Two texts sharing a hash only make one of them wait a retry.
  std::string_view try_lock_text() const override {
    return "SELECT CAST(pg_try_advisory_xact_lock(hashtextextended(?, 7308604896046739045)) AS "
           "INTEGER)";
  }

  std::string_view json_text_values() const override {
    return "(SELECT jsonb_array_elements_text(CAST(? AS jsonb)))";
  }
  // In the collation of the schema's text keys, so that they compare through their indexes.
  std::string json_text_tuples(int columns) const override {
    std::string sql = "(SELECT ";
    for (int i = 0; i < columns; ++i) {
      const std::string n = std::to_string(i);
      sql.append(i ? ", " : "").append("(e->>" + n + ") COLLATE \"C\" AS c" + n);
    }
    return sql.append(" FROM jsonb_array_elements(CAST(? AS jsonb)) AS e)");
  }

  // Rows are addressed by their primary key; the trigram GIN index holds no rowid ranges.
  std::string workspace_rowid(std::string_view, std::string_view) const override { return {}; }
  bool rowids_by_workspace() const override { return false; }
  // The sum of the workspace's shard counters (migration 0011), which identifies the set of
  // lead writes its snapshot sees (docs/design.md, "Search result cache").
  std::string_view lead_version() const override {
    return "SELECT CAST(COALESCE(SUM(version), 0) AS BIGINT) FROM lead_versions "
           "WHERE workspace_id = ?";
  }
  // A get is one round trip either way; a kept rendering would save PostgreSQL's work but not
  // the trip, and the triggers would cost every contact write.
  std::string_view conversation_version() const override { return ""; }

  // Containment of a one-element array, which the GIN index on the tags serves; the planner's
  // statistics weigh it against walking the sort's index.
  void add_tag_filter(sql::ListSql& sql, const sql::TagTarget& target,
                      const std::string& tag) const override {
    std::string condition(target.alias);
    condition.append(".").append(target.column).append(" @> CAST(? AS jsonb)");
    sql.filter(condition, encode_string_array({tag}));
  }

  void add_search(sql::ListSql& sql, const sql::SearchTarget& target,
                  const std::string& needle) const override {
    sql.filter(std::string(target.alias) + "." + std::string(target.column) + " LIKE ?",
               contains_pattern(needle));
  }

  // Counted once at the end rather than per row (see record_counts_track in migration 0002):
  // per-row counting walks one counter row's version chain on every insert. The tables an
  // import fills are analysed as its last step, committed with its rows: planned without
  // statistics (autovacuum's come a minute or more later), the first lists after an import of a
  // fresh database took seconds.
  // The import's statements are planned with their values (until its transaction ends): the
  // tables it fills have no statistics of their new rows until the ANALYZE at its end, and the
  // plan cache's generic plans, built on the stale ones, made a conversation import 3x slower
  // (2,000 conversations with 10 messages each: 20.5 s against 7.2 s). The per-row foreign-key
  // checks of its COPYs, and the look-ups of contacts by e-mail, keep generic plans
  // (postgres::Connection::insert_rows, find_contacts_people_by_emails).
  // The import's commit is flushed before it returns even where the server's default is
  // synchronous_commit=off: until then no reader may set the hint bits of its rows, so the VACUUM
  // after it (after_import_commit) could mark none of their pages all-visible.
  void before_import(sql::Connection& conn, const domain::WorkspaceId&,
                     const sql::ImportBatchSize&) const override {
    conn.execute("SELECT set_config('leadline.deferred_counts', 'on', true)");
    conn.execute("SELECT set_config('synchronous_commit', 'on', true)");
    conn.plan_with_values_until_commit();
  }
  void after_import(sql::Connection& conn, const domain::WorkspaceId& ws,
                    const std::string& tables) const override {
    conn.execute("SELECT record_counts_recount(?)", sql::Params().id(ws));
    conn.execute("SELECT set_config('leadline.deferred_counts', 'off', true)");
    conn.execute_script("ANALYZE " + tables);
  }
  // Freshly inserted rows leave PostgreSQL work for later: the first reader of each page sets
  // its hint bits, a GIN index answers from its unsorted pending list, and insert-triggered
  // autovacuum (then autoanalyze, since the ANALYZE above ran before the rows were committed)
  // reads and rewrites every new page a minute or so later, on the cores that serve requests
  // (docs/design.md, "Imports"). Done here instead, before the import returns: VACUUM marks the
  // pages all-visible and flushes the pending lists; ANALYZE with it resets the counters that
  // would trigger autoanalyze. VACUUM cannot run in a transaction block, hence one statement on
  // its own after the commit.
  // The import's row counts reach the statistics autovacuum reads when its backend next goes
  // idle, at most once a second: a short import's could land after the VACUUM reset them, and
  // trigger the autovacuum after all. They are flushed first (pg_stat_force_next_flush,
  // PostgreSQL 15: at the end of that statement), on the import's own connection, which the
  // pool hands back first. An older server has no such function and still gets the VACUUM.
  void after_import_commit(sql::Connection& conn, const std::string& tables) const override {
    conn.execute_script(
        "DO $$ BEGIN IF current_setting('server_version_num')::int >= 150000 THEN "
        "PERFORM pg_stat_force_next_flush(); END IF; END $$");
    conn.execute_script("VACUUM (ANALYZE) " + tables);
  }

  std::string_view migration_table() const override { return "schema_migrations"; }
  std::string_view migration_table_definition() const override {
    return "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, "
           "name TEXT NOT NULL, applied_at BIGINT NOT NULL)";
  }
  // Taken before the version table is even created, so a second instance starting at the same
  // time waits for the first one's commit and then finds every migration applied.
  std::string_view migration_lock() const override { return kMigrationLock; }
};

}  // namespace

const sql::Dialect& postgres_dialect() {
  static const PostgresDialect dialect;
  return dialect;
}

std::string contains_pattern(const std::string& needle) {
  // Backslash is LIKE's default escape character.
  std::string pattern = "%";
  for (const char c : needle) {
    if (c == '%' || c == '_' || c == '\\') pattern.push_back('\\');
    pattern.push_back(c);
  }
  pattern.push_back('%');
  return pattern;
}

}  // namespace leadline::store::postgres
