// Search goes through the FTS5 trigram tables the triggers keep; see docs/design.md (Storage).
#include "store/sqlite/sqlite_dialect.hpp"

#include "store/sql/list_statements.hpp"
#include "store/sqlite/trigram_match.hpp"

namespace leadline::store::sqlite {

namespace {

class SqliteDialect final : public sql::Dialect {
 public:
  bool nulls_last_keyword() const override { return false; }

  // One writer connection with group commit: writes never run concurrently.
  std::string lock_rows(std::string_view) const override { return {}; }
  // One writer at a time: a claim is never contended.
  std::string claim_rows(std::string_view) const override { return {}; }
  std::string feed_settled(std::string_view) const override { return {}; }
  std::string_view try_lock_text() const override { return {}; }

  void add_tag_filter(sql::ListSql& sql, std::string_view tags_column,
                      const std::string& tag) const override {
    sql.filter("EXISTS (SELECT 1 FROM json_each(" + std::string(tags_column) +
                   ") WHERE json_each.value = ?)",
               tag);
  }

  // Keeps the rows whose column contains the needle: through the trigram index when the needle
  // is long enough for one, else by scanning with instr(), which, unlike LIKE, has no wildcard
  // characters. Must be the last filter added: the match-driven form copies the others.
  void add_search(sql::ListSql& sql, const sql::SearchTarget& target,
                  const std::string& needle) const override {
    const std::string alias(target.alias);
    const auto phrase = trigram_phrase(needle);
    if (!phrase) {
      sql.filter("instr(" + alias + "." + std::string(target.column) + ", ?) > 0", needle);
      return;
    }
    const std::string index(target.fts_table);
    const std::string in_index = " WHERE " + index + " MATCH ?";
    if (!target.count_from.empty()) {
      // Driven by the index, the count reads the matches only; left to itself, the planner
      // would walk the workspace's rows and test each against the match list.
      sql.count_sql = "SELECT COUNT(*) FROM " + index + " CROSS JOIN " +
                      std::string(target.count_from) + " ON " + alias + ".rowid = " + index +
                      ".rowid" + in_index + " AND " + sql.where;
      sql.count_params = {*phrase};
      sql.count_params.insert(sql.count_params.end(), sql.params.begin(), sql.params.end());
    }
    const std::string condition = alias + ".rowid IN (SELECT rowid FROM " + index + in_index + ")";
    // The unary + keeps the planner off the workspace's sort index, leaving it one way in: the
    // matches, looked up by rowid.
    const std::string workspace = alias + ".workspace_id = ?";
    if (sql.where.rfind(workspace, 0) == 0) {
      sql.match_driven_where = "+" + sql.where + " AND " + condition;
    }
    sql.filter(condition, *phrase);
  }

  void before_import(sql::Connection&, const domain::WorkspaceId&) const override {}
  void after_import(sql::Connection&, const domain::WorkspaceId&) const override {}

  std::string_view migration_table() const override { return "schema_version"; }
  std::string_view migration_table_definition() const override {
    return "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, name TEXT "
           "NOT NULL, applied_at INTEGER NOT NULL) STRICT";
  }
  // BEGIN IMMEDIATE already makes a second migrator wait.
  std::string_view migration_lock() const override { return {}; }
};

}  // namespace

const sql::Dialect& sqlite_dialect() {
  static const SqliteDialect dialect;
  return dialect;
}

}  // namespace leadline::store::sqlite
