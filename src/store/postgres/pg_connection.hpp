// One PostgreSQL connection: RAII ownership of PGconn and PGresult, statements prepared once per
// connection and reused by name, and the sql::Connection the shared query code runs on (its "?"
// placeholders numbered as $1, $2, ... when a statement is first prepared). The connection stays
// in libpq's pipeline mode: what needs no answer of its own (BEGIN, a statement's preparation, a
// check, a read-only COMMIT) travels with the next statement, one round trip for all of them.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "store/sql/connection.hpp"
#include "store/sql/text_keyed_map.hpp"

struct pg_conn;
struct pg_result;

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
  // `write_shard` names the counter rows this session's writes raise (migration 0014); without
  // one the server picks by the backend's pid.
  explicit Connection(const std::string& conninfo, std::optional<int> write_shard = std::nullopt);
  ~Connection() override;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  const sql::Dialect& dialect() const override;
  sql::Rows query(std::string_view sql, const sql::Params& params = {}) override;
  std::int64_t execute(std::string_view sql, const sql::Params& params = {}) override;
  std::optional<std::int64_t> execute_unless_duplicate(std::string_view sql,
                                                       const sql::Params& params) override;
  void execute_script(const std::string& sql) override;
  std::vector<sql::Rows> query_together(std::vector<sql::Statement> statements) override;
  void execute_later(std::string_view sql, const sql::Params& params) override;
  void check_with_next(std::string_view sql, const sql::Params& params) override;
  bool drop_unsent_check() override;
  void plan_with_values_until_commit() override;

  // A statement without parameters whose answer is only success (BEGIN, SAVEPOINT), sent with
  // the next statement; a failure is reported by that statement's call.
  void send_command(std::string_view sql);
  // Has the server run what was sent (a COMMIT, a ROLLBACK) without waiting for its answer,
  // which is read (and a failure reported) with the next statement's, in that round trip.
  void send_now();
  // Ends the round trip of what was sent and reads every answer owed; throws the first failure.
  void sync_now();
  void insert_rows(std::string_view table, std::string_view columns,
                   const std::vector<sql::Params>& rows) override;

  std::optional<int> write_shard() const { return write_shard_; }
  // The server closed the connection or the network failed; it cannot be used again.
  bool broken() const;
  // Inside a transaction block (open or failed), or ending one whose answer is not read yet.
  bool in_transaction() const;

 private:
  class Result;

  // What the server still owes an answer to, in the order sent.
  struct Owed {
    enum class Kind { kCommand, kPrepare, kCheck, kRows, kSync };
    Kind kind;
    // For messages: the statement's text (a literal, or a key of prepared_).
    std::string_view sql;
  };

  // Sends the waiting check, then a prepared statement, and ends the round trip.
  void send_statement(std::string_view sql, const sql::Params& params, Owed::Kind kind,
                      sql::Planning planning = sql::Planning::kDefault);
  void send_prepared(std::string_view sql, const sql::Params& params, Owed::Kind kind);
  // Sends the SET that `planning` needs, if any, to go with the next statement.
  void use_plans(sql::Planning planning);
  // Ends the round trip of what was sent; its answers are read by collect().
  void sync_later();
  // Reads every answer owed; returns the cursors over the rows asked for, in order.
  std::vector<Result*> collect();
  Result& take_result(pg_result* raw);
  // SQL text -> statement name; sends the preparation on first use.
  using Prepared = std::pair<const std::string, std::string>;
  const Prepared& statement_name(std::string_view sql);
  void put_copy_data(const std::string& data);

  pg_conn* conn_ = nullptr;
  std::optional<int> write_shard_;
  sql::TextKeyedMap<std::string> prepared_;       // SQL text -> statement name
  std::deque<std::string> preparing_;             // sent for preparation, answer not read
  std::vector<std::unique_ptr<Result>> results_;  // every cursor made; reused when released
  std::vector<Result*> free_results_;
  std::vector<std::string> param_text_;  // numbers as text, reused between statements
  std::vector<const char*> param_values_;
  std::deque<Owed> owed_;
  std::size_t statements_named_ = 0;
  std::optional<std::pair<std::string, sql::Params>> check_;  // waiting for the next statement
  bool transaction_open_ = false;  // by the BEGIN / COMMIT / ROLLBACK sent
  // The session's plan_cache_mode, as set by this connection.
  enum class Plans { kPerValues, kOnce, kUnknown, kUnsettable };
  Plans plans_ = Plans::kOnce;
  // Planning::kDefault statements are planned with their values until the transaction ends.
  bool per_values_until_commit_ = false;
};

// READ COMMITTED for writes (each statement sees what others committed before it, so a
// unique-index conflict can name the winner); REPEATABLE READ, READ ONLY for reads made of
// several statements (one snapshot). Rolls back unless commit() was called. BEGIN travels with
// the first statement; a read's COMMIT and any ROLLBACK are not waited for, a write's COMMIT is.
class Transaction {
 public:
  enum class Kind { kRead, kWrite };
  Transaction(Connection& conn, Kind kind);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  void commit();
  // commit() was called: from then on, a lost connection may have committed.
  bool committing() const { return !open_; }

 private:
  Connection& conn_;
  Kind kind_;
  bool open_ = true;
};

}  // namespace leadline::store::postgres
