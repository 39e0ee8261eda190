// A fresh HMAC secret for list cursors; each backend stores the first one made for a database.
#pragma once

#include <string>

namespace leadline::store {

// 32 random bytes as lowercase hex. Throws std::runtime_error when the RNG fails.
std::string new_cursor_secret();

}  // namespace leadline::store
