// PostgreSQL's side of the shared SQL: LIKE served by pg_trgm indexes, jsonb tag containment,
// row locks for concurrent writers, deferred counts during imports, its migration table.
#pragma once

#include "store/sql/dialect.hpp"

namespace leadline::store::postgres {

const sql::Dialect& postgres_dialect();

// `pattern` for LIKE that matches `needle` anywhere, with %, _ and \ taken literally.
std::string contains_pattern(const std::string& needle);

}  // namespace leadline::store::postgres
