// Small conversions shared by the query files: timestamp and id columns.
#pragma once

#include <optional>
#include <string>

#include "domain/timestamp.hpp"
#include "store/postgres/pg_connection.hpp"

namespace leadline::store::postgres {

inline domain::Timestamp read_timestamp(const Row& row, int col) {
  return {row.int64(col)};
}

inline std::optional<domain::Timestamp> read_opt_timestamp(const Row& row, int col) {
  if (row.is_null(col)) return std::nullopt;
  return domain::Timestamp{row.int64(col)};
}

// An optional typed id (RepId, AgentId, ...) as a parameter.
template <class Id>
std::optional<std::string> id_value(const std::optional<Id>& id) {
  if (!id) return std::nullopt;
  return id->value;
}

}  // namespace leadline::store::postgres
