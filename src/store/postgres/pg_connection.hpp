// One PostgreSQL connection: RAII ownership of PGconn and PGresult, statements prepared once per
// connection and reused by name, and the sql::Connection the shared query code runs on (its "?"
// placeholders numbered as $1, $2, ... when a statement is first prepared).
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

struct pg_conn;

namespace leadline::store::postgres {

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

// `sql` with its "?" placeholders numbered "$1", "$2", ... in order; question marks inside
// quoted literals, quoted identifiers and comments are left alone.
std::string number_placeholders(std::string_view sql);

class Connection final : public sql::Connection {
 public:
  // Connects with a libpq URL or key=value string. Throws StoreUnavailable when it cannot.
  explicit Connection(const std::string& conninfo);
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

  // The server closed the connection or the network failed; it cannot be used again.
  bool broken() const;
  // Inside a transaction block (open or failed).
  bool in_transaction() const;

 private:
  class Result;

  // Runs a prepared statement and returns a cursor over its result (from the free list).
  Result& run(std::string_view sql, const sql::Params& params);
  const std::string& statement_name(std::string_view sql);
  void put_copy_data(const std::string& data);

  pg_conn* conn_ = nullptr;
  sql::TextKeyedMap<std::string> prepared_;       // SQL text -> statement name
  std::vector<std::unique_ptr<Result>> results_;  // every cursor made; reused when released
  std::vector<Result*> free_results_;
  std::vector<std::string> param_text_;  // numbers as text, reused between statements
  std::vector<const char*> param_values_;
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

}  // namespace leadline::store::postgres
