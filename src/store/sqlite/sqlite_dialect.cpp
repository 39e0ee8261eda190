// Search goes through the FTS5 trigram tables the triggers keep; see docs/design.md (Storage).
#include "store/sqlite/sqlite_dialect.hpp"

#include <vector>

#include "store/sql/connection.hpp"
#include "store/sql/list_statements.hpp"
#include "store/sqlite/bulk_index_rebuild.hpp"
#include "store/sqlite/search_queue.hpp"
#include "store/sqlite/sqlite_connection.hpp"
#include "store/sqlite/trigram_match.hpp"

namespace leadline::store::sqlite {

namespace {

class SqliteDialect final : public sql::Dialect {
 public:
  bool nulls_last_keyword() const override { return false; }

  // Without statistics the planner cannot weigh one index against another; the count does.
  std::string read_through_index(std::string_view index) const override {
    return " INDEXED BY " + std::string(index);
  }

  // One writer connection with group commit: writes never run concurrently.
  std::string lock_rows(std::string_view) const override { return {}; }
  // One writer at a time: a claim is never contended.
  std::string claim_rows(std::string_view) const override { return {}; }
  std::string feed_settled(std::string_view) const override { return {}; }
  std::string_view try_lock_text() const override { return {}; }
  std::string_view json_text_values() const override { return "(SELECT value FROM json_each(?))"; }
  std::string json_text_tuples(int columns) const override {
    std::string sql = "(SELECT ";
    for (int i = 0; i < columns; ++i) {
      const std::string n = std::to_string(i);
      sql.append(i ? ", " : "").append("json_extract(value, '$[" + n + "]') AS c" + n);
    }
    return sql.append(" FROM json_each(?))");
  }

  // Through the tag's rows (migration 0010). Led by the tag, in two forms of the same filters:
  // the tag's rows looked up in the record table, for the count and for a page of few matches;
  // and, for a page of many, the sort's index walked with each row looked up among the tag's
  // rows, which finds a page after about limit / share-of-tagged rows. After a sync window,
  // whose index leads, each row is looked up among the tag's rows.
  void add_tag_filter(sql::ListSql& sql, const sql::TagTarget& target,
                      const std::string& tag) const override {
    const std::string alias(target.alias);
    std::string id_column = "t.";
    id_column.append(target.id_column);
    std::string tag_rows = " FROM ";
    tag_rows.append(target.table).append(" t WHERE t.workspace_id = ? AND t.tag = ?");
    std::string looked_up = "EXISTS (SELECT 1";
    looked_up.append(tag_rows).append(" AND ").append(id_column).append(" = ");
    looked_up.append(alias).append(".id)");
    const sql::Value ws = sql.params.front();  // of_workspace's first parameter
    if (sql.windowed) {
      sql.filter(looked_up, ws, tag);
      return;
    }
    std::string sort_driven = sql.sort_driven_where.empty() ? sql.where : sql.sort_driven_where;
    sort_driven += " AND " + looked_up;
    std::string listed = alias;
    listed.append(".id IN (SELECT ").append(id_column).append(tag_rows).append(")");
    sql.filter(listed, ws, tag);
    sql.sort_driven_where = std::move(sort_driven);
    // The unary + keeps the planner off the workspace's indexes, which it would otherwise walk
    // whole, testing each row against the tag's list.
    std::string workspace = alias;
    workspace.append(".workspace_id = ?");
    if (sql.where.starts_with(workspace)) sql.where = "+" + sql.where;
  }

  // The next rowid of the workspace's range: rowid = (workspace's rowid << 40) + n, so that the
  // range stands for the workspace inside the table's FTS5 index (migration 0009).
  std::string workspace_rowid(std::string_view table,
                              std::string_view workspace_param) const override {
    const std::string t(table);
    return "(SELECT COALESCE((SELECT t.rowid FROM " + t +
           " t WHERE t.rowid >= w.rowid << 40 AND t.rowid < (w.rowid + 1) << 40 ORDER BY "
           "t.rowid DESC LIMIT 1), w.rowid << 40) + 1 FROM workspaces w WHERE w.id = " +
           std::string(workspace_param) + ")";
  }
  bool rowids_by_workspace() const override { return true; }

  std::string_view lead_version() const override {
    return "SELECT version FROM lead_versions WHERE workspace_id = ?";
  }
  std::string_view conversation_version() const override {
    return "SELECT version FROM conversation_versions WHERE workspace_id = ? AND "
           "conversation_id = ?";
  }

  // Keeps the rows whose column contains the needle: through the trigram index when the needle
  // is long enough for one, else by scanning with instr(), which, unlike LIKE, has no wildcard
  // characters.
  void add_search(sql::ListSql& sql, const sql::SearchTarget& target,
                  const std::string& needle) const override {
    const std::string alias(target.alias);
    const std::string in_column = "instr(" + alias + "." + std::string(target.column) + ", ?) > 0";
    const auto phrase = trigram_phrase(needle);
    // A needle across a line break may span two of the column's fields that another field
    // separates in the index's text: only the column can tell.
    if (!phrase || (target.index_holds_more && needle.find('\n') != std::string::npos)) {
      sql.filter(in_column, needle);
      return;
    }
    const std::string index(target.fts_table);
    std::string in_index = " WHERE " + index + " MATCH ?";
    std::vector<sql::Value> index_params = {*phrase};
    const std::string workspace = alias + ".workspace_id = ?";
    const bool workspace_only = sql.where == workspace;
    const sql::Value ws = sql.params.front();  // of_workspace's first parameter
    if (target.rowids_by_workspace) {
      // FTS5 keeps to the workspace's rowid range inside its own index.
      in_index += " AND " + index + ".rowid >= (SELECT w.rowid << 40 FROM workspaces w WHERE " +
                  "w.id = ?) AND " + index +
                  ".rowid < (SELECT (w.rowid + 1) << 40 FROM workspaces w WHERE w.id = ?)";
      index_params.push_back(ws);
      index_params.push_back(ws);
    }
    if (target.rowids_by_workspace && workspace_only) {
      // The index alone holds the answer: no row is read to count.
      sql.count_sql = "SELECT COUNT(*) FROM " + index + in_index;
      sql.count_params = index_params;
    } else if (!target.count_from.empty()) {
      // Driven by the index, the count reads the matches only; left to itself, the planner
      // would walk the workspace's rows and test each against the match list.
      sql.count_sql = "SELECT COUNT(*) FROM " + index + " CROSS JOIN " +
                      std::string(target.count_from) + " ON " + alias + ".rowid = " + index +
                      ".rowid" + in_index + " AND " + sql.where;
      sql.count_params = index_params;
      sql.count_params.insert(sql.count_params.end(), sql.params.begin(), sql.params.end());
    }
    const std::string condition =
        alias + ".rowid IN (SELECT " + index + ".rowid FROM " + index + in_index + ")";
    if (target.rowids_by_workspace) {
      sql.filter(condition, *phrase, ws, ws);
    } else {
      sql.filter(condition, *phrase);
    }
    // The unary + keeps the planner off the workspace's indexes, leaving it one way in: the
    // matches, looked up by rowid. Later filters extend this form too (ListSql::filter).
    if (sql.where.rfind(workspace, 0) == 0) sql.match_driven_where = "+" + sql.where;
    if (target.index_holds_more) sql.filter(in_column, needle);
  }

  // A larger page cache for the import's transaction (kImportCacheKiB); set back after it, so a
  // connection that lives on does not keep the memory. A failed import's process ends anyway.
  // A batch at least as large as its table builds that table's indexes after its rows
  // (bulk_index_rebuild.hpp).
  void before_import(sql::Connection& conn, const domain::WorkspaceId&,
                     const sql::ImportBatchSize& batch) const override {
    conn.execute_script("PRAGMA cache_size = -" + std::to_string(kImportCacheKiB));
    drop_indexes_for_bulk_load(conn, batch);
  }
  // The import ends by merging the trigram indexes' segments into one (FTS5 'optimize', with
  // the import's rows, in its transaction). A bulk import leaves segments whose merging FTS5
  // otherwise carries on during the next writes: POST /leads on a freshly imported 100k
  // database cost 1.7x the CPU and 2.3x the bytes per request until then (BENCHMARKS.md,
  // "Round 3"). About 1 s per 100k leads and contacts; nothing on an index already merged.
  void after_import(sql::Connection& conn, const domain::WorkspaceId&,
                    const std::string&) const override {
    rebuild_dropped_indexes(conn);
    // The queued changes first, so that they are in the one merged segment.
    apply_search_queues(conn);
    conn.execute_script(
        "INSERT INTO leads_search(leads_search) VALUES('optimize');"
        "INSERT INTO contacts_search(contacts_search) VALUES('optimize')");
    conn.execute_script("PRAGMA cache_size = -" + std::to_string(kCacheKiB));
  }
  // The FTS5 merge above is all SQLite leaves for later; it runs no background upkeep.
  void after_import_commit(sql::Connection&, const std::string&) const override {}

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
