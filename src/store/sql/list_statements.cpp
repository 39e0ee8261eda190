// Page and count statements share the filters; only the page adds keyset, order and limits.
#include "store/sql/list_statements.hpp"

#include <algorithm>
#include <cstdint>
#include <variant>

namespace leadline::store::sql {

namespace {

constexpr std::string_view kIdName = "keyset_id";

// The row's columns, then its id and sort key values, named so that the outer ORDER BY of a
// page split at the NULLs can refer to them.
std::string select_head(const ListSql& sql, const std::vector<std::string>& key_names) {
  std::string head = "SELECT " + sql.columns + ", " + std::string(sql.id_expr) + " AS ";
  head += kIdName;
  for (std::size_t k = 0; k < sql.keys.size(); ++k) {
    head += ", ";
    head += sql.keys[k].expr;
    head += " AS ";
    head += key_names[k];
  }
  head += " FROM " + sql.from + " WHERE " + sql.where;
  return head;
}

// With NULLS LAST (PostgreSQL), the rows after a non-null value of a nullable first key are
// two ranges of the sort's index: the non-null values beyond it, then every NULL. One OR
// condition over both makes the database filter the workspace's rows from the index's start,
// so such a page asks for each range on its own and merges the two.
bool splits_at_nulls(const ListSql& sql, const PageRequest& page, const Dialect& dialect) {
  return dialect.nulls_last_keyword() && page.after && !sql.keys.empty() &&
         sql.keys.front().nullable && !page.after->values.empty() &&
         !std::holds_alternative<std::monostate>(page.after->values.front());
}

// "(head AND after ORDER BY o LIMIT n) UNION ALL (head AND key IS NULL ORDER BY o LIMIT n)",
// ordered again by the named columns; the caller adds the page's own LIMIT and OFFSET.
std::string split_page(const ListSql& sql, const PageRequest& page, const Dialect& dialect,
                       const std::string& head, const std::vector<std::string>& key_names,
                       std::vector<Value>& params) {
  const std::string order_by =
      build_keyset_clause(sql.keys, sql.id_expr, sql.direction, std::nullopt, dialect).order_by;
  std::vector<SortKey> beyond_keys = sql.keys;
  // This branch holds non-null values only, which also lets the first key bound the range.
  beyond_keys.front().nullable = false;
  const KeysetClause beyond =
      build_keyset_clause(beyond_keys, sql.id_expr, sql.direction, page.after, dialect);
  // Placeholders are positional, so the second branch binds the filters and the limit again.
  const Value limit = static_cast<std::int64_t>(std::max(page.limit, 1)) + 1 +
                      std::max<std::int64_t>(page.offset, 0);
  params.insert(params.end(), beyond.params.begin(), beyond.params.end());
  params.push_back(limit);
  params.insert(params.end(), sql.params.begin(), sql.params.end());
  params.push_back(limit);

  std::vector<SortKey> named_keys;
  for (std::size_t k = 0; k < sql.keys.size(); ++k) {
    named_keys.push_back({key_names[k], sql.keys[k].nullable});
  }
  const std::string outer_order_by =
      build_keyset_clause(named_keys, kIdName, sql.direction, std::nullopt, dialect).order_by;

  std::string out = "SELECT * FROM ((" + head + " AND (" + beyond.after_condition + ") ORDER BY ";
  out += order_by + " LIMIT ?) UNION ALL (" + head + " AND ";
  out += sql.keys.front().expr;
  out += " IS NULL ORDER BY " + order_by + " LIMIT ?)) AS page ORDER BY ";
  out += outer_order_by;
  return out;
}

}  // namespace

ListStatements build_list_statements(const ListSql& sql, const PageRequest& page,
                                     const Dialect& dialect) {
  std::vector<std::string> key_names;
  for (std::size_t k = 0; k < sql.keys.size(); ++k) {
    key_names.push_back("keyset_");
    key_names.back() += std::to_string(k);
  }
  const std::string head = select_head(sql, key_names);
  ListStatements st;
  st.page_params = sql.params;
  if (splits_at_nulls(sql, page, dialect)) {
    st.page_sql = split_page(sql, page, dialect, head, key_names, st.page_params);
  } else {
    const KeysetClause keyset =
        build_keyset_clause(sql.keys, sql.id_expr, sql.direction, page.after, dialect);
    st.page_sql = head;
    if (!keyset.after_condition.empty()) {
      st.page_sql += " AND (" + keyset.after_condition + ")";
      st.page_params.insert(st.page_params.end(), keyset.params.begin(), keyset.params.end());
    }
    st.page_sql += " ORDER BY " + keyset.order_by;
  }
  st.page_params.emplace_back(static_cast<std::int64_t>(std::max(page.limit, 1)) + 1);
  st.page_sql += " LIMIT ?";
  st.page_params.emplace_back(std::max<std::int64_t>(page.offset, 0));
  st.page_sql += " OFFSET ?";
  if (!sql.count_sql.empty()) {
    st.count_sql = sql.count_sql;
    st.count_params = sql.count_params;
  } else {
    st.count_sql = "SELECT COUNT(*) FROM " + (sql.count_from.empty() ? sql.from : sql.count_from) +
                   " WHERE " + sql.where;
    st.count_params = sql.params;
  }
  return st;
}

void count_from_record_counts(ListSql& sql, std::string_view record_type, const std::string& ws,
                              const std::optional<std::string>& bucket) {
  sql.count_params = {ws, std::string(record_type)};
  // CAST: PostgreSQL's SUM of bigint is numeric.
  sql.count_sql =
      "SELECT CAST(COALESCE(SUM(n), 0) AS BIGINT) FROM record_counts WHERE "
      "workspace_id = ? AND record_type = ?";
  if (bucket) {
    sql.count_params.emplace_back(*bucket);
    sql.count_sql += " AND bucket = ?";
  }
}

}  // namespace leadline::store::sql
