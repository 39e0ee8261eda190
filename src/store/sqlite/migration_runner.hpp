// Brings a database's schema up to date when a store opens it.
#pragma once

#include <vector>

#include "store/migration.hpp"
#include "store/sqlite/sqlite_connection.hpp"

namespace leadline::store::sqlite {

// Applies every migration newer than the recorded schema version, all in one BEGIN IMMEDIATE
// transaction, so that two processes opening a fresh database do not both apply them.
// Throws std::runtime_error when the database is newer than this build knows.
void apply_migrations(Connection& conn, const std::vector<Migration>& migrations);

}  // namespace leadline::store::sqlite
