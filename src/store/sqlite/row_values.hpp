// Small conversions shared by the query files: timestamp columns.
#pragma once

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

}  // namespace leadline::store::sqlite
