// SQL text of a list page and its count; values are always bound, never spliced in.
#include "store/sqlite/list_page.hpp"

#include <algorithm>

namespace leadline::store::sqlite {

ListStatements build_list_statements(const ListSql& sql, const PageRequest& page) {
  const KeysetClause keyset = build_keyset_clause(sql.keys, sql.id_expr, sql.direction, page.after);
  ListStatements st;
  st.page_sql = "SELECT " + sql.columns + ", " + std::string(sql.id_expr);
  for (const SortKey& key : sql.keys) {
    st.page_sql += ", ";
    st.page_sql += key.expr;
  }
  st.page_sql += " FROM " + sql.from + " WHERE " + sql.where;
  st.page_params = sql.params;
  if (!keyset.after_condition.empty()) {
    st.page_sql += " AND (" + keyset.after_condition + ")";
    st.page_params.insert(st.page_params.end(), keyset.params.begin(), keyset.params.end());
  }
  st.page_sql += " ORDER BY " + keyset.order_by + " LIMIT ? OFFSET ?";
  st.page_params.emplace_back(static_cast<std::int64_t>(std::max(page.limit, 1)) + 1);
  st.page_params.emplace_back(std::max<std::int64_t>(page.offset, 0));
  st.count_sql = "SELECT COUNT(*) FROM " + sql.from + " WHERE " + sql.where;
  return st;
}

KeysetPosition read_position(const Query& q, std::size_t key_count) {
  const int first_key_column = q.column_count() - 1 - static_cast<int>(key_count);
  KeysetPosition pos;
  pos.id = q.text(first_key_column);
  for (std::size_t k = 0; k < key_count; ++k) {
    pos.values.push_back(q.value(first_key_column + 1 + static_cast<int>(k)));
  }
  return pos;
}

}  // namespace leadline::store::sqlite
