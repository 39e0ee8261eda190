// One SQLite connection: RAII ownership, a cache of prepared statements keyed by SQL text, and
// the sql::Connection the shared query code runs on.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "store/sql/connection.hpp"
#include "store/sql/text_keyed_map.hpp"

struct sqlite3;

namespace leadline::store::sqlite {

// The database itself failed; code() is SQLite's extended result code.
class SqliteError : public std::runtime_error {
 public:
  SqliteError(const std::string& what, int code) : std::runtime_error(what), code_(code) {}
  int code() const { return code_; }
  bool is_unique_violation() const;

 private:
  int code_;
};

// Page cache per connection, in KiB (PRAGMA cache_size = -N): 16 MiB for serving; an import
// takes 128 MiB for its transaction, so the index pages its random keys (score, name) land on
// stay in memory instead of being spilled to the WAL and read back (docs/design.md, "Import").
inline constexpr int kCacheKiB = 16384;
inline constexpr int kImportCacheKiB = 131072;

class Connection final : public sql::Connection {
 public:
  // Whether opening may create the file. Only the engine's first connection may: a reader
  // opened later while the file is gone (moved, deleted) must fail rather than start an empty
  // database beside the real one's WAL.
  enum class Open { kCreating, kExisting };

  // Opens the database file and applies the per-connection pragmas.
  explicit Connection(const std::string& path, Open open = Open::kCreating);
  ~Connection() override;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  const sql::Dialect& dialect() const override;
  sql::Rows query(std::string_view sql, const sql::Params& params = {}) override;
  std::int64_t execute(std::string_view sql, const sql::Params& params = {}) override;
  std::optional<std::int64_t> execute_unless_duplicate(std::string_view sql,
                                                       const sql::Params& params) override;
  void execute_script(const std::string& sql) override;
  void insert_rows(std::string_view table, std::string_view columns,
                   const std::vector<sql::Params>& rows) override;

  bool in_transaction() const;
  // The SQLite handle, for what this class does not wrap (file controls in tests).
  sqlite3* handle() const { return db_; }
  // Rows inserted, updated or deleted since the connection opened, by triggers too.
  std::int64_t total_changes() const;

 private:
  struct Statement;

  // A cached statement for `sql` with `params` bound, marked in use until released.
  Statement& prepare(std::string_view sql, const sql::Params& params);

  sqlite3* db_ = nullptr;
  // Usually one statement per SQL text; a second one is prepared only when the same SQL is
  // run while the first is still being stepped.
  sql::TextKeyedMap<std::vector<std::unique_ptr<Statement>>> cache_;
};

// BEGIN IMMEDIATE for writes (takes the write lock up front, so two processes never deadlock
// upgrading), deferred BEGIN for multi-statement reads (one consistent snapshot). Rolls back
// unless commit() was called.
class Transaction {
 public:
  enum class Kind { kRead, kWrite };
  Transaction(Connection& conn, Kind kind);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  void commit();

 private:
  Connection& conn_;
  bool open_ = true;
};

}  // namespace leadline::store::sqlite
