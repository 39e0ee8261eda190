// Builders for statement parameters.
#include "store/sql/params.hpp"

namespace leadline::store::sql {

Params& Params::text(std::string_view v) {
  values_.emplace_back(std::string(v));
  return *this;
}

Params& Params::int64(std::int64_t v) {
  values_.emplace_back(v);
  return *this;
}

Params& Params::real(double v) {
  values_.emplace_back(v);
  return *this;
}

Params& Params::null() {
  values_.emplace_back(std::monostate{});
  return *this;
}

Params& Params::opt_text(const std::optional<std::string>& v) {
  return v ? text(*v) : null();
}

Params& Params::opt_real(const std::optional<double>& v) {
  return v ? real(*v) : null();
}

Params& Params::value(Value v) {
  values_.push_back(std::move(v));
  return *this;
}

}  // namespace leadline::store::sql
