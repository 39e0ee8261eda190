// The query string of a request, decoded once: each parameter at most once, valid UTF-8, and
// every name checked against what the operation accepts.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/decoded.hpp"

namespace leadline::api {

class QueryParams {
 public:
  // `query` is the encoded text after '?', without it.
  static Decoded<QueryParams> parse(std::string_view query);

  // Absent -> nothing; present -> its decoded value (maybe empty).
  std::optional<std::string_view> get(std::string_view name) const;
  bool has(std::string_view name) const { return get(name).has_value(); }
  bool empty() const { return items_.empty(); }

  // The first parameter not in `allowed`, as a 400 sentence.
  std::optional<BadRequest> reject_unknown(std::initializer_list<std::string_view> allowed,
                                           std::string_view context = {}) const;

 private:
  std::vector<std::pair<std::string, std::string>> items_;
};

}  // namespace leadline::api
