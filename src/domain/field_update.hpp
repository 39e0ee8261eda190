// A PATCH field has three states: not sent, sent as null (clear), or sent with a value.
#pragma once

#include <optional>

namespace leadline::domain {

template <class T>
struct FieldUpdate {
  bool present = false;
  std::optional<T> value;  // empty while present means "clear"

  static FieldUpdate set(T v) { return {true, std::move(v)}; }
  static FieldUpdate clear() { return {true, std::nullopt}; }
};

}  // namespace leadline::domain
