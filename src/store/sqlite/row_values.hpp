// Small conversions shared by the query files: timestamp columns and the forward-only clock
// of updated_at.
#pragma once

#include <algorithm>
#include <optional>

#include "domain/timestamp.hpp"
#include "store/sqlite/sqlite_connection.hpp"

namespace leadline::store::sqlite {

inline domain::Timestamp read_timestamp(const Query& q, int col) {
  return {q.int64(col)};
}

inline std::optional<domain::Timestamp> read_opt_timestamp(const Query& q, int col) {
  if (q.is_null(col)) return std::nullopt;
  return domain::Timestamp{q.int64(col)};
}

// A changing PATCH must move updated_at forward even when the clock has not (same
// millisecond) or has gone back, or when the record was imported with a future time.
inline domain::Timestamp advance_updated_at(domain::Timestamp old, domain::Timestamp now) {
  return {std::max(now.unix_ms, old.unix_ms + 1)};
}

}  // namespace leadline::store::sqlite
