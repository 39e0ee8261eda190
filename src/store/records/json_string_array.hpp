// Tags and IP allow-lists are stored as JSON arrays of strings (SQLite filters them with
// json_each, PostgreSQL with jsonb @>); these convert between that text and a string vector.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace leadline::store {

// Valid UTF-8 in, compact JSON out (non-ASCII kept as is).
std::string encode_string_array(const std::vector<std::string>& values);

// Throws std::runtime_error when `json` is not an array of strings.
std::vector<std::string> decode_string_array(std::string_view json);
// The same into `out`, whose strings keep their capacity (a record refilled from row to row).
void decode_string_array_into(std::string_view json, std::vector<std::string>& out);

}  // namespace leadline::store
