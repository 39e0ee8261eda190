// A numbered schema migration; each backend embeds its own ordered list at build time.
#pragma once

#include <string_view>
#include <vector>

namespace leadline::store {

struct Migration {
  int version;
  std::string_view name;
  std::string_view sql;
};

}  // namespace leadline::store
