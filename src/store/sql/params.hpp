// The parameters of one statement, in the order of its "?" placeholders.
#pragma once

#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "domain/ids.hpp"
#include "store/sql/value.hpp"

namespace leadline::store::sql {

// Held inline up to the widest statement leadline runs (a contact's insert binds 18), so binding
// never allocates the list itself.
using ValueList = boost::container::small_vector<Value, 20>;

class Params {
 public:
  Params() = default;
  // Values already collected (a list's filters and keyset bounds), in placeholder order.
  explicit Params(std::vector<Value>&& values)
      : values_(std::make_move_iterator(values.begin()), std::make_move_iterator(values.end())) {}

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

  const ValueList& values() const { return values_; }

 private:
  ValueList values_;
};

}  // namespace leadline::store::sql
