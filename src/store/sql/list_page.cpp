// The keyset position of a list row, read from the columns after the row's own, and the form
// of a list's page that suits its count.
#include "store/sql/list_page.hpp"

namespace leadline::store::sql {

KeysetPosition read_position(const Rows& rows, std::size_t key_count) {
  const int first_key_column = rows.columns() - 1 - static_cast<int>(key_count);
  KeysetPosition pos;
  pos.id = rows.text(first_key_column);
  for (std::size_t k = 0; k < key_count; ++k) {
    pos.values.push_back(rows.value(first_key_column + 1 + static_cast<int>(k)));
  }
  return pos;
}

ListStatements list_statements_for(const ListSql& sql, const PageRequest& page,
                                   const Dialect& dialect,
                                   std::optional<std::int64_t> total_count) {
  if (!total_count) return build_list_statements(sql, page, dialect);
  ListSql form = sql;
  if (*total_count <= kMatchDrivenLimit) {
    if (!sql.match_driven_where.empty()) {
      form.where = sql.match_driven_where;
    } else if (!sql.match_driven_from.empty()) {
      form.from = sql.match_driven_from;
    }
  } else if (!sql.sort_driven_where.empty()) {
    form.where = sql.sort_driven_where;
  }
  return build_list_statements(form, page, dialect);
}

}  // namespace leadline::store::sql
