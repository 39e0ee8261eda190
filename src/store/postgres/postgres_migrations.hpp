// The PostgreSQL migrations, embedded from src/store/migrations/postgres/*.sql at build time.
#pragma once

#include <vector>

#include "store/schema/migration.hpp"

namespace leadline::store::postgres {

// Ordered by version.
const std::vector<store::Migration>& migrations();

}  // namespace leadline::store::postgres
