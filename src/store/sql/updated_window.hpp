// The one way a list's sync window (updated_since / updated_before) becomes a filter, for
// every list that has one.
#pragma once

#include <string_view>

#include "store/list_query.hpp"
#include "store/sql/dialect.hpp"
#include "store/sql/list_statements.hpp"

namespace leadline::store::sql {

// The column a list's window applies to, on the list's own table (`alias`, which `from`
// starts with: "<table> <alias>"), and the index (workspace_id, column, id) that serves it.
struct WindowColumn {
  std::string_view alias;
  std::string_view column;
  std::string_view index;
};

// Keeps the rows with since <= column < before; call after ListSql::sort_by and before the
// search. With a window, total_count is counted over the filters (the counts the triggers keep
// know nothing of time), so the caller must not count from record_counts.
void filter_updated_window(ListSql& sql, const Dialect& dialect, const WindowColumn& target,
                           const UpdatedWindow& window);

}  // namespace leadline::store::sql
