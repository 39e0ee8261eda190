// Small conversions shared by the query files: optional typed ids as parameters.
#pragma once

#include <optional>
#include <string>

namespace leadline::store::postgres {

// An optional typed id (RepId, AgentId, ...) as a parameter.
template <class Id>
std::optional<std::string> id_value(const std::optional<Id>& id) {
  if (!id) return std::nullopt;
  return id->value;
}

}  // namespace leadline::store::postgres
