// Sorted by the window's column, one index serves the window and the order. Sorted by another
// column, SQLite (no statistics) would read the window through its index and sort it however
// wide it is, or, on a cursor page, walk the sort's index from the cursor however narrow the
// window is; so there the count decides (run_list): few matches are read through the window's
// index by name, many by walking the sort order past a window its index is hidden from.
#include "store/sql/updated_window.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace leadline::store::sql {

namespace {

// `from` with `hint` after its leading "<table> <alias>".
std::string from_with_hint(const std::string& from, std::string_view alias,
                           const std::string& hint) {
  const std::size_t alias_at = from.find(' ') + 1;
  const std::size_t alias_end = alias_at + alias.size();
  if (alias_at == 0 || from.compare(alias_at, alias.size(), alias) != 0 ||
      (alias_end < from.size() && from[alias_end] != ' ')) {
    throw std::logic_error("list FROM clause does not start with its table's alias: " + from);
  }
  return from.substr(0, alias_end) + hint + from.substr(alias_end);
}

}  // namespace

void filter_updated_window(ListSql& sql, const Dialect& dialect, const WindowColumn& target,
                           const UpdatedWindow& window) {
  if (window.empty()) return;
  sql.windowed = true;
  const std::string column = std::string(target.alias) + "." + std::string(target.column);
  const bool sorted_by_window = !sql.keys.empty() && sql.keys.front().expr == column;
  const std::string hint =
      sorted_by_window ? std::string() : dialect.read_through_index(target.index);
  const bool steer = !hint.empty();
  std::string sort_driven = sql.sort_driven_where.empty() ? sql.where : sql.sort_driven_where;
  const auto bound = [&](std::string_view op, std::int64_t unix_ms) {
    const std::string condition = column + " " + std::string(op) + " ?";
    sql.filter(condition, unix_ms);
    // The unary + hides the column from its index, leaving the planner the sort's.
    sort_driven += " AND +" + condition;
  };
  if (window.since) bound(">=", window.since->unix_ms);
  if (window.before) bound("<", window.before->unix_ms);
  if (steer) {
    sql.sort_driven_where = std::move(sort_driven);
    sql.match_driven_from = from_with_hint(sql.from, target.alias, hint);
  }
}

}  // namespace leadline::store::sql
