// One database connection as the shared query code uses it. SQL text is written once for both
// engines, with "?" placeholders; what still differs between them is asked of dialect().
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "store/sql/params.hpp"
#include "store/sql/rows.hpp"

namespace leadline::store::sql {

class Dialect;

// A check sent with check_with_next() returned no row: what the statement after it read does
// not count.
class CheckFailed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// How a statement is planned where the engine keeps plans between executions (PostgreSQL).
enum class Planning {
  // One plan for all values, made once per connection, except inside an import
  // (plan_with_values_until_commit), where it is kPerValues. Left to its own plan cache,
  // PostgreSQL planned a read by id with its values, and for a workspace the statistics did not
  // know yet (filled since the last ANALYZE) every index that starts with the workspace looked
  // equally cheap for the one row it expected: the tie went to leads_by_stage, 57 ms to read one
  // lead of a 50k-lead workspace instead of the primary key's 0.1 ms. A plan for all values,
  // made for an average workspace, takes the key's index.
  kDefault,
  // The best plan depends on the values (how many rows a search needle matches): planned for
  // each execution rather than once for all.
  kPerValues,
  // One plan suits every value, even in an import (a list page walking its sort's index, a
  // look-up by a unique key).
  kOnce,
};

struct Statement {
  std::string_view sql;
  Params params;
  Planning planning = Planning::kDefault;
};

class Connection {
 public:
  virtual ~Connection() = default;

  virtual const Dialect& dialect() const = 0;

  // Runs `sql` with `params` bound in placeholder order and returns its rows. Statements are
  // prepared once per connection and reused. Throws when the database fails.
  virtual Rows query(std::string_view sql, const Params& params = {}) = 0;

  // Runs a statement for its effect; returns the number of rows it changed.
  virtual std::int64_t execute(std::string_view sql, const Params& params = {}) = 0;

  // The same, except that breaking a unique index is an answer, not a failure: nothing changes,
  // the transaction stays usable, and the result is empty.
  virtual std::optional<std::int64_t> execute_unless_duplicate(std::string_view sql,
                                                               const Params& params) = 0;

  // Statements without parameters, several separated by ";" (migration scripts).
  virtual void execute_script(const std::string& sql) = 0;

  // Runs a statement for its effect without waiting for it: an engine with a pipeline sends it
  // with the next statement, whose call (or the commit) reports its failure; this one runs it
  // at once.
  virtual void execute_later(std::string_view sql, const Params& params) { execute(sql, params); }

  // The statements' rows, in order. An engine with a pipeline sends them in one round trip;
  // this one runs them one after the other.
  virtual std::vector<Rows> query_together(std::vector<Statement> statements) {
    std::vector<Rows> out;
    out.reserve(statements.size());
    for (auto& s : statements) out.push_back(query(s.sql, s.params));
    return out;
  }

  // A statement that must return a row, run before the next statement (in its round trip, on
  // an engine with a pipeline); when it returns none, that statement's call throws CheckFailed.
  // This one runs it at once.
  virtual void check_with_next(std::string_view sql, const Params& params) {
    if (!query(sql, params).next()) throw CheckFailed("check failed");
  }

  // Drops a check that no statement has carried yet; true when there was one.
  virtual bool drop_unsent_check() { return false; }
  // Until the transaction ends, Planning::kDefault statements are planned with their values, as
  // kPerValues: an import's, whose tables' statistics lag its
  // rows. An engine without a plan cache plans every statement so already.
  virtual void plan_with_values_until_commit() {}
  // Appends `rows` to `table`, each row's values in the order of `columns` (an INSERT's column
  // list), all in one statement: an import's bulk path, so the table's triggers and indexes
  // take a whole batch at once (SQLite: INSERT ... SELECT over bound_rows; PostgreSQL: COPY FROM
  // STDIN). A row that breaks a constraint fails the call.
  virtual void insert_rows(std::string_view table, std::string_view columns,
                           const std::vector<Params>& rows) = 0;
};

// `statement`'s rows, planned as it asks (Connection::query leaves planning to the engine).
inline Rows query_planned(Connection& conn, Statement statement) {
  std::vector<Statement> one;
  one.push_back(std::move(statement));
  return std::move(conn.query_together(std::move(one)).front());
}

}  // namespace leadline::store::sql
