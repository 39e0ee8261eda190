// Enumerations as the database stores them (their API names), read back strictly: a value no
// build knows means the database was written by something else, which is an error, not a 400.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace leadline::store {

// `parse` is the domain's parser of the enumeration; `what` names the column in the error.
template <class Enum>
Enum stored_enum(std::string_view text, std::optional<Enum> (*parse)(std::string_view),
                 std::string_view what) {
  const std::optional<Enum> value = parse(text);
  if (!value) {
    throw std::runtime_error("stored " + std::string(what) + " is unknown: " + std::string(text));
  }
  return *value;
}

}  // namespace leadline::store
