// The parameters of one statement, in the order of its "?" placeholders.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/ids.hpp"
#include "store/sql/value.hpp"

namespace leadline::store::sql {

class Params {
 public:
  Params& text(std::string_view v);
  Params& int64(std::int64_t v);
  Params& real(double v);
  Params& null();
  Params& opt_text(const std::optional<std::string>& v);
  Params& opt_real(const std::optional<double>& v);
  Params& value(Value v);

  template <class Tag>
  Params& id(const domain::Id<Tag>& v) {
    return text(v.value);
  }
  template <class Tag>
  Params& opt_id(const std::optional<domain::Id<Tag>>& v) {
    return v ? text(v->value) : null();
  }

  const std::vector<Value>& values() const { return values_; }

 private:
  std::vector<Value> values_;
};

// Params from values already collected (a list's filters and keyset bounds).
Params params_of(const std::vector<Value>& values);

}  // namespace leadline::store::sql
