// The SQLite migrations, embedded from src/store/migrations/sqlite/*.sql at build time.
#pragma once

#include <vector>

#include "store/schema/migration.hpp"

namespace leadline::store::sqlite {

// Ordered by version.
const std::vector<store::Migration>& migrations();

}  // namespace leadline::store::sqlite
