// One SQL value as leadline binds and reads it: null, integer, real or text (the same shape as
// a sort key's value, so keyset positions are bound as they were read).
#pragma once

#include <cstdint>
#include <string>
#include <variant>

namespace leadline::store::sql {

using Value = std::variant<std::monostate, std::int64_t, double, std::string>;

}  // namespace leadline::store::sql
