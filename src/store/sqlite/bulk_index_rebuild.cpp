// Why: a leads index with random keys (name, score) takes one B-tree descent and most often a
// page write per row; built after the rows, it is one sort and pages written once, in order.
// Measured in docs/design.md, "Imports". The indexes go inside the import's transaction, so
// readers (WAL snapshots) never see the table without them, and a failed import's rollback
// restores them.
#include "store/sqlite/bulk_index_rebuild.hpp"

#include <string>
#include <utility>
#include <vector>

namespace leadline::store::sqlite {

namespace {

// Read whole and finished before the caller changes the schema, which SQLite refuses while a
// statement is still stepping.
std::vector<std::string> column_of(sql::Connection& conn, std::string_view query) {
  std::vector<std::string> out;
  sql::Rows rows = conn.query(query);
  while (rows.next()) out.push_back(rows.text(0));
  return out;
}

std::int64_t rows_held(sql::Connection& conn, std::string_view table) {
  sql::Rows rows = conn.query("SELECT count(*) FROM main." + std::string(table));
  rows.next();
  return rows.int64(0);
}

}  // namespace

void drop_indexes_for_bulk_load(sql::Connection& conn, const sql::ImportBatchSize& batch) {
  conn.execute_script(
      "CREATE TEMP TABLE IF NOT EXISTS import_dropped_indexes "
      "(name TEXT PRIMARY KEY, sql TEXT NOT NULL)");
  const std::pair<std::string_view, std::int64_t> tables[] = {{"leads", batch.leads},
                                                              {"contacts", batch.contacts}};
  for (const auto& [table, incoming] : tables) {
    if (incoming < kRebuildMinRows || incoming < rows_held(conn, table)) continue;
    conn.execute(
        "INSERT INTO temp.import_dropped_indexes (name, sql) "
        "SELECT name, sql FROM main.sqlite_schema WHERE type = 'index' AND tbl_name = ? "
        "AND sql IS NOT NULL AND sql NOT LIKE 'CREATE UNIQUE %'",
        sql::Params().text(table));
  }
  // printf's %w quotes the name as an identifier.
  for (const std::string& drop : column_of(conn,
                                           "SELECT printf('DROP INDEX main.\"%w\"', name) "
                                           "FROM temp.import_dropped_indexes")) {
    conn.execute_script(drop);
  }
}

void rebuild_dropped_indexes(sql::Connection& conn) {
  for (const std::string& statement :
       column_of(conn, "SELECT sql FROM temp.import_dropped_indexes ORDER BY name")) {
    conn.execute_script(statement);
  }
  conn.execute("DELETE FROM temp.import_dropped_indexes");
}

}  // namespace leadline::store::sqlite
