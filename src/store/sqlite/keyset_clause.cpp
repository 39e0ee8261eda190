// Keyset paging over SQLite, where NULL compares lowest: ascending order needs an explicit
// "IS NULL" key in front of a nullable column, descending order already puts NULLs last.
#include "store/sqlite/keyset_clause.hpp"

#include <stdexcept>

namespace leadline::store::sqlite {

namespace {

// Rows strictly after the position from key `i` on, given equal values on keys before it.
// A non-null value v is followed by rows beyond v, then rows equal to v (decided by later
// keys), then NULL rows; a NULL value only by NULL rows decided by later keys.
void append_after(std::string& sql, std::vector<SqlValue>& params, const std::vector<SortKey>& keys,
                  std::size_t i, std::string_view id_expr, const char* beyond,
                  const KeysetPosition& pos) {
  if (i == keys.size()) {
    sql += id_expr;
    sql += beyond;
    sql += '?';
    params.emplace_back(pos.id);
    return;
  }
  const SortKey& key = keys[i];
  const SqlValue& v = pos.values[i];
  sql += '(';
  if (std::holds_alternative<std::monostate>(v)) {
    sql += key.expr;
    sql += " IS NULL AND ";
    append_after(sql, params, keys, i + 1, id_expr, beyond, pos);
  } else {
    sql += key.expr;
    sql += beyond;
    sql += '?';
    params.push_back(v);
    if (key.nullable) {
      sql += " OR ";
      sql += key.expr;
      sql += " IS NULL";
    }
    sql += " OR (";
    sql += key.expr;
    sql += " = ? AND ";
    params.push_back(v);
    append_after(sql, params, keys, i + 1, id_expr, beyond, pos);
    sql += ')';
  }
  sql += ')';
}

}  // namespace

KeysetClause build_keyset_clause(const std::vector<SortKey>& keys, std::string_view id_expr,
                                 SortDirection direction,
                                 const std::optional<KeysetPosition>& after) {
  const bool asc = direction == SortDirection::kAsc;
  KeysetClause out;
  for (const SortKey& key : keys) {
    if (key.nullable && asc) {
      out.order_by += '(';
      out.order_by += key.expr;
      out.order_by += " IS NULL), ";
    }
    out.order_by += key.expr;
    out.order_by += asc ? " ASC, " : " DESC, ";
  }
  out.order_by += id_expr;
  out.order_by += asc ? " ASC" : " DESC";

  if (!after) return out;
  if (keys.empty() || after->values.size() != keys.size()) {
    throw std::invalid_argument("keyset position has " + std::to_string(after->values.size()) +
                                " values for " + std::to_string(keys.size()) + " sort keys");
  }
  const char* beyond = asc ? " > " : " < ";
  // A redundant bound on a non-null leading key lets SQLite seek into the index instead of
  // scanning from the start of the workspace.
  const SortKey& first = keys.front();
  if (!first.nullable && !std::holds_alternative<std::monostate>(after->values.front())) {
    out.after_condition += first.expr;
    out.after_condition += asc ? " >= ? AND " : " <= ? AND ";
    out.params.push_back(after->values.front());
  }
  append_after(out.after_condition, out.params, keys, 0, id_expr, beyond, *after);
  return out;
}

}  // namespace leadline::store::sqlite
