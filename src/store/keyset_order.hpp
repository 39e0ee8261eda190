// Turns a list of sort keys, a direction and an optional page position into the ORDER BY and
// the "strictly after this row" condition of a keyset-paged SELECT, with NULLs last both ways,
// in the placeholder and NULL-ordering syntax of either backend.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/list_query.hpp"

namespace leadline::store {

// One sort key: a fixed SQL expression (a column) and whether it can be NULL.
struct SortKey {
  std::string_view expr;
  bool nullable = false;
};

// What differs between the backends' SQL for the same list.
struct SqlDialect {
  // SQLite has no NULLS LAST that its indexes serve, so ascending order puts an "(x IS NULL)"
  // key in front; PostgreSQL says NULLS LAST, which a matching index serves.
  bool nulls_last_keyword = false;
  // The text of the parameter at 1-based position `number` in the statement ("?" or "$n").
  std::string (*placeholder)(std::size_t number) = nullptr;
};

struct KeysetClause {
  std::string order_by;           // without the ORDER BY keyword
  std::string after_condition;    // empty when there is no position
  std::vector<SortValue> params;  // bound in order for after_condition's placeholders
};

// Ties are broken by `id_expr` in the same direction. `params_before` placeholders precede
// after_condition in the statement. Throws std::invalid_argument when the position does not
// have one value per key.
KeysetClause build_keyset_clause(const std::vector<SortKey>& keys, std::string_view id_expr,
                                 SortDirection direction,
                                 const std::optional<KeysetPosition>& after,
                                 const SqlDialect& dialect, std::size_t params_before);

}  // namespace leadline::store
