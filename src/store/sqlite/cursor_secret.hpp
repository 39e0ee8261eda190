// The HMAC secret for list cursors, kept in the database so every process and node using it
// signs and checks cursors alike.
#pragma once

#include <string>

#include "store/sqlite/sqlite_connection.hpp"

namespace leadline::store::sqlite {

// Reads meta.cursor_secret, first storing 32 random bytes (hex) when the database has none.
std::string load_or_create_cursor_secret(Connection& conn);

}  // namespace leadline::store::sqlite
