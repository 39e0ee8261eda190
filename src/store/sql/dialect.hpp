// What still differs between the engines once SQL text is shared: how a list orders NULLs,
// filters by tag and searches text, whether reads lock rows for a write, and the statements
// around an import and a migration. One implementation per engine (sqlite/, postgres/).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "domain/ids.hpp"

namespace leadline::store::sql {

class Connection;
struct ListSql;

// Where a list searches: the folded column `alias.column`, which SQLite also indexes in the
// FTS5 trigram table `fts_table`. With `count_from` (the table of `alias`), total_count is
// counted from the search index instead of over the page's joins. `rowids_by_workspace`: the
// table's rowids are its workspace's range (Dialect::workspace_rowid), so the index alone
// tells a workspace's matches. `index_holds_more`: `fts_table` indexes a longer text of the same
// row, its fields separated by line breaks and among them every field of `column` in the same
// order (a contact's whole search text for the visitor's): the index finds a superset of the
// matches, and the column decides.
struct SearchTarget {
  std::string_view alias;
  std::string_view column;
  std::string_view fts_table;
  std::string_view count_from;
  bool rowids_by_workspace = false;
  bool index_holds_more = false;
};

// What a list filters by tag: the JSON tag array `alias.column` of its rows, and the table the
// triggers keep of each tag's rows, (workspace_id, tag, `id_column`) (SQLite, migration 0010).
struct TagTarget {
  std::string_view alias;
  std::string_view column;
  std::string_view table;
  std::string_view id_column;
};

// How many records of each kind an import's batch stores.
struct ImportBatchSize {
  std::int64_t leads = 0;
  std::int64_t contacts = 0;
};

class Dialect {
 public:
  virtual ~Dialect() = default;

  // PostgreSQL says NULLS LAST, which its per-direction indexes serve; SQLite has no NULLS LAST
  // that an index serves, so ascending orders put an "(x IS NULL)" key in front.
  virtual bool nulls_last_keyword() const = 0;

  // What follows "<table> <alias>" in a FROM clause to read the table through `index`, where
  // the planner has no statistics to weigh indexes with (SQLite: leadline never runs ANALYZE)
  // and the store picks a list's plan by its count instead; "" where the planner weighs them
  // itself (PostgreSQL).
  virtual std::string read_through_index(std::string_view index) const = 0;

  // Appended to the SELECT that reads the rows a write is about to change, so concurrent
  // writers change them one after the other ("" where the engine admits one writer anyway).
  virtual std::string lock_rows(std::string_view alias) const = 0;

  // Appended to the SELECT that claims work several instances share (due webhook deliveries):
  // rows another transaction holds are skipped rather than waited for.
  virtual std::string claim_rows(std::string_view alias) const = 0;

  // The condition that keeps the events feed (alias `alias`) to events no earlier event can
  // still join: "" where commits land in the order of `seq`; on PostgreSQL, events of
  // transactions older than every one still running (docs/design.md, "The events feed").
  virtual std::string feed_settled(std::string_view alias) const = 0;

  // A statement taking one text parameter that tries to lock that text until the transaction
  // ends, answering one row whose one column is 1 when it did and 0 when
  // another transaction holds it: how one instance's request
  // with an Idempotency-Key keeps out another's. "" where the write transaction already does.
  virtual std::string_view try_lock_text() const = 0;

  // A one-column subquery of the strings in the JSON array text bound at its one "?", for
  // "column IN <it>": many values matched in one statement with one parameter.
  virtual std::string_view json_text_values() const = 0;
  // A subquery of a row per element of the JSON array bound at its one "?", each element an
  // array of `columns` strings, as text columns c0, c1, ...: many rows' values in one parameter
  // (an UPDATE ... FROM it).
  virtual std::string json_text_tuples(int columns) const = 0;

  // The value of a new row's rowid in `table`, an SQL expression taking the workspace id as its
  // one parameter, written `workspace_param` ("?", or "?2" to reuse the second value of an
  // INSERT numbered ?1, ?2, ...): the next rowid of the workspace's range, where the engine
  // keeps a table's rows by workspace in their rowids (SQLite's leads, migration 0009); "" where
  // it does not.
  virtual std::string workspace_rowid(std::string_view table,
                                      std::string_view workspace_param) const = 0;
  // Whether workspace_rowid says anything: asked per write and per list, where building the
  // expression to test it for "" would allocate each time.
  virtual bool rowids_by_workspace() const = 0;

  // A query taking the workspace id whose one row, if any, holds the version of its leads, which
  // every insert, update and delete of one of them raises in its own transaction (SQLite,
  // migration 0011; PostgreSQL, migration 0011, summed over shard rows so that concurrent
  // writers seldom share one; no row: 0); "" where none is kept.
  virtual std::string_view lead_version() const = 0;

  // A query taking the workspace and conversation ids whose one row, if any, holds the version of
  // what getting the conversation shows, which every write changing it raises in its own
  // transaction (SQLite, migration 0014; no row: 0); "" where none is kept.
  virtual std::string_view conversation_version() const = 0;

  // Keeps the list's rows whose tag array holds `tag`, through an index.
  virtual void add_tag_filter(ListSql& sql, const TagTarget& target,
                              const std::string& tag) const = 0;

  // Keeps the list's rows whose searched column contains `needle` (already case-folded), with
  // %, _ and \ taken literally.
  virtual void add_search(ListSql& sql, const SearchTarget& target,
                          const std::string& needle) const = 0;

  // Run inside an import's transaction, before its first and after its last record. `batch`
  // says how many records of each kind follow; `tables` are the tables it wrote to
  // (comma-separated).
  virtual void before_import(Connection& conn, const domain::WorkspaceId& ws,
                             const ImportBatchSize& batch) const = 0;
  virtual void after_import(Connection& conn, const domain::WorkspaceId& ws,
                            const std::string& tables) const = 0;
  // Run once the import has committed, outside any transaction, on the tables it wrote to: the
  // engine's own after-load upkeep, done before the import returns.
  virtual void after_import_commit(Connection& conn, const std::string& tables) const = 0;

  // The table recording applied migrations, its definition, and a statement that makes
  // concurrent migrators wait for each other ("" where the write transaction already does).
  virtual std::string_view migration_table() const = 0;
  virtual std::string_view migration_table_definition() const = 0;
  virtual std::string_view migration_lock() const = 0;
};

}  // namespace leadline::store::sql
