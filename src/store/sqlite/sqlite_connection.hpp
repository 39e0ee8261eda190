// One SQLite connection: RAII ownership, a cache of prepared statements keyed by SQL text, and
// the typed bind / step / column helpers every query file uses.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "store/list_query.hpp"

struct sqlite3;
struct sqlite3_stmt;

namespace leadline::store::sqlite {

// A parameter or column value: null, integer, real or text (the same shape as a sort value).
using SqlValue = SortValue;

// The database itself failed; code() is SQLite's extended result code.
class SqliteError : public std::runtime_error {
 public:
  SqliteError(const std::string& what, int code) : std::runtime_error(what), code_(code) {}
  int code() const { return code_; }
  bool is_unique_violation() const;

 private:
  int code_;
};

struct CachedStatement;

// A statement borrowed from the cache for one execution. Parameters are bound in order of
// their `?` placeholders; the destructor resets the statement and clears its bindings so the
// cache can hand it out again.
class Query {
 public:
  explicit Query(CachedStatement& statement);
  ~Query();
  Query(const Query&) = delete;
  Query& operator=(const Query&) = delete;

  Query& bind_int(std::int64_t v);
  Query& bind_real(double v);
  Query& bind_text(std::string_view v);
  Query& bind_null();
  Query& bind_opt_text(const std::optional<std::string>& v);
  Query& bind_opt_real(const std::optional<double>& v);
  Query& bind_value(const SqlValue& v);

  // True while a row is available.
  bool step();
  // Runs a statement that returns no rows.
  void run();

  int column_count() const;
  bool is_null(int col) const;
  std::int64_t int64(int col) const;
  double real(int col) const;
  std::string text(int col) const;
  std::optional<std::string> opt_text(int col) const;
  std::optional<double> opt_real(int col) const;
  std::optional<std::int64_t> opt_int64(int col) const;
  SqlValue value(int col) const;

 private:
  CachedStatement& statement_;
  int next_param_ = 1;
};

class Connection {
 public:
  // Opens (creating when missing) the database file and applies the per-connection pragmas.
  explicit Connection(const std::string& path);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Statements without parameters: pragmas, transaction control, migration scripts.
  void exec(const std::string& sql);

  // A cached statement for `sql`; prepared on first use.
  Query query(const std::string& sql);

  int changes() const;
  bool in_transaction() const;

 private:
  sqlite3* db_ = nullptr;
  // Usually one statement per SQL text; a second one is prepared only when the same SQL is
  // run while the first is still being stepped.
  std::unordered_map<std::string, std::vector<std::unique_ptr<CachedStatement>>> cache_;
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
