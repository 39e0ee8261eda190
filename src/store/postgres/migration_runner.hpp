// Brings a database's schema up to date when a store opens it.
#pragma once

#include <vector>

#include "store/migration.hpp"
#include "store/postgres/pg_connection.hpp"

namespace leadline::store::postgres {

// Applies every migration newer than those recorded in schema_migrations, all in one
// transaction under a transaction-scoped advisory lock, so that several instances starting at
// once apply them exactly once. Throws std::runtime_error when the database is newer than
// this build knows.
void apply_migrations(Connection& conn, const std::vector<Migration>& migrations);

}  // namespace leadline::store::postgres
