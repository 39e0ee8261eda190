// SQL for per-key usage: additive upserts of counted deltas and the report over UTC windows.
#pragma once

#include <variant>
#include <vector>

#include "store/postgres/pg_connection.hpp"
#include "store/store.hpp"

namespace leadline::store::postgres {

// Adds each delta to its (key, day, endpoint) row, so flushes of several instances add up.
// Deltas of keys that do not exist are dropped rather than failing the whole batch.
void add_usage(Connection& conn, const std::vector<UsageDelta>& deltas);

std::variant<UsageReport, NotFound> select_usage(Connection& conn, const domain::ApiKeyId& id,
                                                 domain::Timestamp now);

}  // namespace leadline::store::postgres
