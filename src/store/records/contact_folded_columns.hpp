// The case-folded and search columns a contact row carries, derived from its fields the one way
// both backends store them.
#pragma once

#include <optional>
#include <string>

#include "domain/records.hpp"

namespace leadline::store {

struct ContactFoldedColumns {
  std::string first_name;
  std::optional<std::string> last_name;
  std::optional<std::string> email;
  std::string search;          // first, last, e-mail, phone, company
  std::string visitor_search;  // first, last, e-mail, company (conversation search)
};

ContactFoldedColumns contact_folded_columns(const domain::Contact& c);

}  // namespace leadline::store
