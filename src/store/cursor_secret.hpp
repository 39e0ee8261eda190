// The HMAC secret of list cursors, created with the database so that every instance on it
// shares the secret and accepts every other instance's cursors.
#pragma once

#include <string>

#include "store/sql/connection.hpp"

namespace leadline::store {

// 32 random bytes as lowercase hex. Throws std::runtime_error when the RNG fails.
std::string new_cursor_secret();

// Inside a write transaction: the database's secret, made now when it has none. When several
// instances open a fresh database at once, the first one's secret wins.
std::string load_or_create_cursor_secret(sql::Connection& conn);

}  // namespace leadline::store
