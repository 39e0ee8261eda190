// Applies the numbered migrations a database still needs, on either engine.
#pragma once

#include <vector>

#include "domain/timestamp.hpp"
#include "store/schema/migration.hpp"
#include "store/sql/connection.hpp"

namespace leadline::store {

// Inside the caller's write transaction: waits for any other migrator (the dialect's lock),
// creates the version table when missing, runs each pending migration and records it as
// applied at `now`. Throws when the database is newer than this build.
void apply_migrations(sql::Connection& conn, const std::vector<Migration>& migrations,
                      domain::Timestamp now);

}  // namespace leadline::store
