// The HMAC secret for list cursors, kept in the database so every instance using it signs and
// checks cursors alike.
#pragma once

#include <string>

#include "store/postgres/pg_connection.hpp"

namespace leadline::store::postgres {

// Reads meta.cursor_secret, first storing a new one when the database has none.
std::string load_or_create_cursor_secret(Connection& conn);

}  // namespace leadline::store::postgres
