// Runs one page of a filtered, keyset-ordered list and the COUNT(*) of every match. The caller
// holds a read transaction around it so both statements see the same snapshot.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>

#include "store/list_query.hpp"
#include "store/list_statements.hpp"
#include "store/sqlite/sqlite_connection.hpp"

namespace leadline::store::sqlite {

// "?" placeholders; NULLs last through an "(x IS NULL)" key.
const SqlDialect& sqlite_dialect();

// The id and sort key values of the current row, exactly as the store compares them; the page
// SELECT puts them after the row's own columns.
KeysetPosition read_position(const Query& q, std::size_t key_count);

template <class T, class ReadRow>
Page<T> run_list(Connection& conn, const ListSql& sql, const PageRequest& page, ReadRow read_row) {
  const ListStatements st = build_list_statements(sql, page, sqlite_dialect());
  const auto limit = static_cast<std::size_t>(std::max(page.limit, 1));
  Page<T> out;
  {
    auto q = conn.query(st.page_sql);
    for (const SqlValue& p : st.page_params) q.bind_value(p);
    while (q.step()) {
      // The one row beyond the page only says that there is more.
      if (out.items.size() == limit) {
        out.has_more = true;
        break;
      }
      out.items.push_back(read_row(q));
      if (out.items.size() == limit) {
        out.next_position = read_position(q, sql.keys.size());
      }
    }
  }
  if (!out.has_more) out.next_position.reset();
  {
    auto q = conn.query(st.count_sql);
    for (const SqlValue& p : sql.params) q.bind_value(p);
    q.step();
    out.total_count = q.int64(0);
  }
  return out;
}

}  // namespace leadline::store::sqlite
