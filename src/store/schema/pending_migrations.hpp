// Which of a build's migrations a database still needs, given the version it records.
#pragma once

#include <cstdint>
#include <vector>

#include "store/schema/migration.hpp"

namespace leadline::store {

// In order. Throws std::runtime_error when the database is newer than this build knows, so an
// old build never writes to a schema it does not understand.
std::vector<Migration> pending_migrations(const std::vector<Migration>& migrations,
                                          std::int64_t current_version);

}  // namespace leadline::store
