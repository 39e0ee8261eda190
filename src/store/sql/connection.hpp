// One database connection as the shared query code uses it. SQL text is written once for both
// engines, with "?" placeholders; what still differs between them is asked of dialect().
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/sql/params.hpp"
#include "store/sql/rows.hpp"

namespace leadline::store::sql {

class Dialect;

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

  // Appends `rows` to `table`, each row's values in the order of `columns` (an INSERT's column
  // list), all in one statement: an import's bulk path, so the table's triggers and indexes
  // take a whole batch at once (SQLite: INSERT ... SELECT over json_each; PostgreSQL: COPY FROM
  // STDIN). A row that breaks a constraint fails the call.
  virtual void insert_rows(std::string_view table, std::string_view columns,
                           const std::vector<Params>& rows) = 0;
};

}  // namespace leadline::store::sql
