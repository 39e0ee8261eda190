// An import that stores at least as many rows as a table holds builds that table's secondary
// indexes after its rows instead of entry by entry (docs/design.md, "Imports").
#pragma once

#include <cstdint>
#include "store/sql/connection.hpp"
#include "store/sql/dialect.hpp"

namespace leadline::store::sqlite {

// Below this many rows a batch keeps the indexes: their rebuild would cost more than it saves.
inline constexpr std::int64_t kRebuildMinRows = 10'000;

// Inside the import's transaction, before its rows: drops the non-unique indexes of leads and
// of contacts where `batch` brings at least kRebuildMinRows of them and at least what the table
// holds. The unique ones stay, as they decide the import's conflicts. Remembers what it dropped
// in a temporary table of the connection.
void drop_indexes_for_bulk_load(sql::Connection& conn, const sql::ImportBatchSize& batch);

// After the import's rows, in the same transaction: creates every index dropped above again,
// each in one sorted pass over the table. Nothing when none was dropped.
void rebuild_dropped_indexes(sql::Connection& conn);

}  // namespace leadline::store::sqlite
