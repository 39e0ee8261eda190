// Splits the list at ", " only: column names never contain it.
#include "store/sql/column_list.hpp"

namespace leadline::store::sql {

namespace {

template <class Each>
void for_each_column(std::string_view columns, Each each) {
  while (!columns.empty()) {
    const std::size_t comma = columns.find(", ");
    each(columns.substr(0, comma), comma == std::string_view::npos);
    if (comma == std::string_view::npos) return;
    columns.remove_prefix(comma + 2);
  }
}

}  // namespace

std::string set_clause(std::string_view columns) {
  std::string out;
  for_each_column(columns, [&](std::string_view column, bool last) {
    out.append(column).append(" = ?");
    if (!last) out.append(", ");
  });
  return out;
}

std::string placeholders_for(std::string_view columns) {
  std::string out;
  for_each_column(columns, [&](std::string_view, bool last) { out.append(last ? "?" : "?, "); });
  return out;
}

std::string numbered_placeholders_for(std::string_view columns) {
  std::string out;
  int n = 0;
  for_each_column(columns, [&](std::string_view, bool last) {
    out.append("?").append(std::to_string(++n));
    if (!last) out.append(", ");
  });
  return out;
}

}  // namespace leadline::store::sql
