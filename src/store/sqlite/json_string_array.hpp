// Tags and IP allow-lists are stored as JSON arrays of strings, so SQLite's json_each can
// filter on them; these convert between that text and std::vector<std::string>.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace leadline::store::sqlite {

// Valid UTF-8 in, compact JSON out (non-ASCII kept as is).
std::string encode_string_array(const std::vector<std::string>& values);

// Throws std::runtime_error when `json` is not an array of strings.
std::vector<std::string> decode_string_array(std::string_view json);

}  // namespace leadline::store::sqlite
