// SQL for per-key usage: additive upserts of counted deltas and the report over UTC windows.
#pragma once

#include <variant>
#include <vector>

#include "store/sqlite/sqlite_connection.hpp"
#include "store/store.hpp"

namespace leadline::store::sqlite {

// Adds each delta to its (key, day, endpoint) row. Deltas of keys that do not exist are
// dropped rather than failing the whole batch.
void add_usage(Connection& conn, const std::vector<UsageDelta>& deltas);

// today: the UTC day of `now`; this_week: its ISO week (Monday to Sunday); this_month: its UTC
// calendar month, which also bounds by_endpoint, error_rate and rate_limited.
std::variant<UsageReport, NotFound> select_usage(Connection& conn, const domain::ApiKeyId& id,
                                                 domain::Timestamp now);

}  // namespace leadline::store::sqlite
