// bound_rows(?): a table-valued function whose rows are the sql::Params of a vector bound to its
// argument as a pointer, so a bulk insert reads each value as it is held, in one statement.
#pragma once

#include <string>
#include <string_view>

struct sqlite3;

namespace leadline::store::sqlite {

// The pointer type the argument is bound with (sqlite3_bind_pointer): a
// `const std::vector<sql::Params>*`, every row as wide as the first.
inline constexpr const char* kBoundRowsPointer = "leadline.bound_rows";

// Makes bound_rows available on `db`.
void register_bound_rows(sqlite3* db);

// "SELECT c0, c1, ... FROM bound_rows(?)" for rows of `width` values.
std::string select_bound_rows(std::size_t width);

}  // namespace leadline::store::sqlite
