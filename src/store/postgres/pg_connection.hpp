// One PostgreSQL connection: RAII ownership of PGconn and PGresult, statements prepared once
// per connection and reused by name, typed parameters sent as text, text results read back
// into C++ types.
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

struct pg_conn;
struct pg_result;

namespace leadline::store::postgres {

// A parameter or column value: null, integer, real or text (the same shape as a sort value).
using SqlValue = SortValue;

// The server rejected a statement; sqlstate() is its five-character SQLSTATE code. Losing the
// connection is StoreUnavailable instead.
class PgError : public std::runtime_error {
 public:
  PgError(const std::string& what, std::string sqlstate)
      : std::runtime_error(what), sqlstate_(std::move(sqlstate)) {}
  const std::string& sqlstate() const { return sqlstate_; }
  bool is_unique_violation() const { return sqlstate_ == "23505"; }
  // Serialization failure or deadlock: running the whole transaction again may succeed.
  bool is_transient() const { return sqlstate_ == "40001" || sqlstate_ == "40P01"; }

 private:
  std::string sqlstate_;
};

// Parameters in order of their $n placeholders, each kept as its text form (or NULL).
class Params {
 public:
  Params& text(std::string_view v);
  Params& int64(std::int64_t v);
  Params& real(double v);
  Params& null();
  Params& opt_text(const std::optional<std::string>& v);
  Params& opt_real(const std::optional<double>& v);
  Params& value(const SqlValue& v);

  const std::vector<std::optional<std::string>>& values() const { return values_; }

 private:
  std::vector<std::optional<std::string>> values_;
};

struct ResultDeleter {
  void operator()(pg_result* r) const;
};

// A statement's result, all rows in memory, every value in text form.
class Result {
 public:
  explicit Result(pg_result* r) : result_(r) {}

  int rows() const;
  int columns() const;
  // Rows a DELETE / UPDATE / INSERT touched.
  std::int64_t affected() const;

  bool is_null(int row, int col) const;
  std::string text(int row, int col) const;
  std::int64_t int64(int row, int col) const;
  double real(int row, int col) const;
  std::optional<std::string> opt_text(int row, int col) const;
  std::optional<double> opt_real(int row, int col) const;
  std::optional<std::int64_t> opt_int64(int row, int col) const;
  // Typed by the column's type: bigint and integer as integers, double precision as reals.
  SqlValue value(int row, int col) const;

 private:
  std::unique_ptr<pg_result, ResultDeleter> result_;
};

// One row of a Result, so that row readers look like the SQLite ones.
class Row {
 public:
  Row(const Result& result, int row) : result_(result), row_(row) {}
  int columns() const { return result_.columns(); }
  bool is_null(int col) const { return result_.is_null(row_, col); }
  std::string text(int col) const { return result_.text(row_, col); }
  std::int64_t int64(int col) const { return result_.int64(row_, col); }
  double real(int col) const { return result_.real(row_, col); }
  std::optional<std::string> opt_text(int col) const { return result_.opt_text(row_, col); }
  std::optional<double> opt_real(int col) const { return result_.opt_real(row_, col); }
  std::optional<std::int64_t> opt_int64(int col) const { return result_.opt_int64(row_, col); }
  SqlValue value(int col) const { return result_.value(row_, col); }

 private:
  const Result& result_;
  int row_;
};

class Connection {
 public:
  // Connects with a libpq URL or key=value string. Throws StoreUnavailable when it cannot.
  explicit Connection(const std::string& conninfo);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Statements without parameters, several separated by ";" allowed: transaction control,
  // migration scripts.
  void exec(const std::string& sql);

  // Runs `sql` with `params`, preparing it under a name on first use on this connection.
  Result query(const std::string& sql, const Params& params = {});

  // The server closed the connection or the network failed; it cannot be used again.
  bool broken() const;
  // Inside a transaction block (open or failed).
  bool in_transaction() const;

 private:
  pg_conn* conn_ = nullptr;
  std::unordered_map<std::string, std::string> prepared_;  // SQL text -> statement name
};

// READ COMMITTED for writes (each statement sees what others committed before it, so a
// unique-index conflict can name the winner); REPEATABLE READ, READ ONLY for reads made of
// several statements (one snapshot). Rolls back unless commit() was called.
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

// Runs `f` between SAVEPOINT and RELEASE; a unique violation inside it is rolled back to the
// savepoint (so the transaction stays usable) and reported as false.
template <class F>
bool without_unique_violation(Connection& conn, F&& f) {
  conn.exec("SAVEPOINT unique_guard");
  try {
    f();
  } catch (const PgError& e) {
    if (!e.is_unique_violation()) throw;
    conn.exec("ROLLBACK TO SAVEPOINT unique_guard");
    conn.exec("RELEASE SAVEPOINT unique_guard");
    return false;
  }
  conn.exec("RELEASE SAVEPOINT unique_guard");
  return true;
}

}  // namespace leadline::store::postgres
