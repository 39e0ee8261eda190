// Hides the password of a database or Redis URL before it is shown to anyone.
#pragma once

#include <string>
#include <string_view>

namespace leadline::cli {

// "postgres://user:pw@host/db" -> "postgres://user:***@host/db"; "redis://:pw@h:6379" ->
// "redis://:***@h:6379"; a libpq "password=pw" (keyword form or query parameter) -> "password=***".
std::string mask_secrets(std::string_view url);

}  // namespace leadline::cli
