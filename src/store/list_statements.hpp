// The SQL text of one page of a filtered, keyset-ordered list and of the COUNT(*) of every
// match, for either backend; values are always bound, never spliced in.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "store/keyset_order.hpp"
#include "store/list_query.hpp"

namespace leadline::store {

struct ListSql {
  std::string columns;            // what the row reader reads, from column 0 on
  std::string from;               // table and joins
  std::string where;              // the filters; always at least the workspace condition
  std::vector<SortValue> params;  // for the placeholders of `where`
  std::vector<SortKey> keys;
  std::string_view id_expr;
  SortDirection direction = SortDirection::kDesc;

  // Appends `v` to params and returns its placeholder, for building `where`.
  std::string bind(SortValue v, const SqlDialect& dialect);
};

struct ListStatements {
  std::string page_sql;  // selects the row, then the id, then the sort key values
  std::vector<SortValue> page_params;
  std::string count_sql;  // takes ListSql::params
};

// The page asks for limit + 1 rows: the one beyond the page only says that there is more.
ListStatements build_list_statements(const ListSql& sql, const PageRequest& page,
                                     const SqlDialect& dialect);

}  // namespace leadline::store
