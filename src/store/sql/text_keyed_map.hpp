// A map keyed by SQL text that finds entries by a string_view, so that looking up a cached
// statement never builds a std::string.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace leadline::store::sql {

struct TextHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

template <class Value>
using TextKeyedMap = std::unordered_map<std::string, Value, TextHash, std::equal_to<>>;

}  // namespace leadline::store::sql
