// SQLite's side of the shared SQL: FTS5 trigram search, json_each tag filters, no row locks
// (one writer at a time), and its migration table.
#pragma once

#include "store/sql/dialect.hpp"

namespace leadline::store::sqlite {

const sql::Dialect& sqlite_dialect();

}  // namespace leadline::store::sqlite
