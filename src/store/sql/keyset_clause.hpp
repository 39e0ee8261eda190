// Turns a list of sort keys, a direction and an optional page position into the ORDER BY and
// the "strictly after this row" condition of a keyset-paged SELECT, with NULLs last both ways.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/list_query.hpp"
#include "store/sql/dialect.hpp"

namespace leadline::store::sql {

// One sort key: a fixed SQL expression (a column) and whether it can be NULL.
struct SortKey {
  std::string_view expr;
  bool nullable = false;
};

struct KeysetClause {
  std::string order_by;         // without the ORDER BY keyword
  std::string after_condition;  // empty when there is no position
  std::vector<Value> params;    // bound in order for after_condition's placeholders
};

// Ties are broken by `id_expr` in the same direction. Throws std::invalid_argument when the
// position does not have one value per key.
KeysetClause build_keyset_clause(const std::vector<SortKey>& keys, std::string_view id_expr,
                                 SortDirection direction,
                                 const std::optional<KeysetPosition>& after,
                                 const Dialect& dialect);

}  // namespace leadline::store::sql
