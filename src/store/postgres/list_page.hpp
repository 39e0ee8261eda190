// Runs one page of a filtered, keyset-ordered list and the COUNT(*) of every match. The caller
// holds a read transaction around it so both statements see the same snapshot.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>

#include "store/list_query.hpp"
#include "store/list_statements.hpp"
#include "store/postgres/pg_connection.hpp"

namespace leadline::store::postgres {

// "$n" placeholders; NULLS LAST, which the per-direction indexes serve.
const SqlDialect& postgres_dialect();

// Appends `v` to the list's parameters and returns its "$n".
inline std::string bind(ListSql& sql, SqlValue v) {
  return sql.bind(std::move(v), postgres_dialect());
}

// The id and sort key values of a row, exactly as the store compares them; the page SELECT
// puts them after the row's own columns.
KeysetPosition read_position(const Row& row, std::size_t key_count);

// `pattern` for LIKE that matches `needle` anywhere, with %, _ and \ taken literally.
std::string contains_pattern(const std::string& needle);

template <class T, class ReadRow>
Page<T> run_list(Connection& conn, const ListSql& sql, const PageRequest& page, ReadRow read_row) {
  const ListStatements st = build_list_statements(sql, page, postgres_dialect());
  const auto limit = static_cast<std::size_t>(std::max(page.limit, 1));
  Page<T> out;
  Params page_params;
  for (const SqlValue& p : st.page_params) page_params.value(p);
  const Result rows = conn.query(st.page_sql, page_params);
  for (int r = 0; r < rows.rows(); ++r) {
    // The one row beyond the page only says that there is more.
    if (out.items.size() == limit) {
      out.has_more = true;
      break;
    }
    const Row row(rows, r);
    out.items.push_back(read_row(row));
    if (out.items.size() == limit) out.next_position = read_position(row, sql.keys.size());
  }
  if (!out.has_more) out.next_position.reset();
  Params count_params;
  for (const SqlValue& p : st.count_params) count_params.value(p);
  out.total_count = conn.query(st.count_sql, count_params).int64(0, 0);
  return out;
}

}  // namespace leadline::store::postgres
