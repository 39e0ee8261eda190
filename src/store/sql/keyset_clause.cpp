// Keyset paging with NULLs last in both directions. The "after" condition never relies on how
// a backend orders NULL: NULL rows are matched with IS NULL explicitly.
#include "store/sql/keyset_clause.hpp"

#include <stdexcept>

namespace leadline::store::sql {

namespace {

class ConditionWriter {
 public:
  ConditionWriter(const std::vector<SortKey>& keys, std::string_view id_expr, const char* beyond,
                  KeysetClause& out)
      : keys_(keys), id_expr_(id_expr), beyond_(beyond), out_(out) {}

  // Rows strictly after the position from key `i` on, given equal values on keys before it.
  // A non-null value v is followed by rows beyond v, then rows equal to v (decided by later
  // keys), then NULL rows; a NULL value only by NULL rows decided by later keys.
  void append_after(std::size_t i, const KeysetPosition& pos) {
    std::string& sql = out_.after_condition;
    if (i == keys_.size()) {
      sql += id_expr_;
      sql += beyond_;
      bind(pos.id);
      return;
    }
    const SortKey& key = keys_[i];
    const SortValue& v = pos.values[i];
    sql += '(';
    if (std::holds_alternative<std::monostate>(v)) {
      sql += key.expr;
      sql += " IS NULL AND ";
      append_after(i + 1, pos);
    } else {
      sql += key.expr;
      sql += beyond_;
      bind(v);
      if (key.nullable) {
        sql += " OR ";
        sql += key.expr;
        sql += " IS NULL";
      }
      sql += " OR (";
      sql += key.expr;
      sql += " = ";
      bind(v);
      sql += " AND ";
      append_after(i + 1, pos);
      sql += ')';
    }
    sql += ')';
  }

  void bind(const SortValue& v) {
    out_.params.push_back(v);
    out_.after_condition += '?';
  }

 private:
  const std::vector<SortKey>& keys_;
  std::string_view id_expr_;
  const char* beyond_;
  KeysetClause& out_;
};

std::string order_by(const std::vector<SortKey>& keys, std::string_view id_expr, bool asc,
                     const Dialect& dialect) {
  std::string sql;
  for (const SortKey& key : keys) {
    if (key.nullable && asc && !dialect.nulls_last_keyword()) {
      sql += '(';
      sql += key.expr;
      sql += " IS NULL), ";
    }
    sql += key.expr;
    sql += asc ? " ASC" : " DESC";
    // Only nullable keys say NULLS LAST: on a NOT NULL column the plain order lets one index
    // serve both directions.
    if (key.nullable && dialect.nulls_last_keyword()) sql += " NULLS LAST";
    sql += ", ";
  }
  sql += id_expr;
  sql += asc ? " ASC" : " DESC";
  return sql;
}

}  // namespace

KeysetClause build_keyset_clause(const std::vector<SortKey>& keys, std::string_view id_expr,
                                 SortDirection direction,
                                 const std::optional<KeysetPosition>& after,
                                 const Dialect& dialect) {
  const bool asc = direction == SortDirection::kAsc;
  KeysetClause out;
  out.order_by = order_by(keys, id_expr, asc, dialect);
  if (!after) return out;
  if (keys.empty() || after->values.size() != keys.size()) {
    throw std::invalid_argument("keyset position has " + std::to_string(after->values.size()) +
                                " values for " + std::to_string(keys.size()) + " sort keys");
  }
  const char* beyond = asc ? " > " : " < ";
  ConditionWriter writer(keys, id_expr, beyond, out);
  // A redundant bound on a non-null leading key lets the database seek into the index instead
  // of scanning from the start of the workspace.
  const SortKey& first = keys.front();
  if (!first.nullable && !std::holds_alternative<std::monostate>(after->values.front())) {
    out.after_condition += first.expr;
    out.after_condition += asc ? " >= " : " <= ";
    writer.bind(after->values.front());
    out.after_condition += " AND ";
  }
  writer.append_after(0, *after);
  return out;
}

}  // namespace leadline::store::sql
