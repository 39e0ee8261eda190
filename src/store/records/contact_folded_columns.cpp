// Folding and search text of a contact row.
#include "store/records/contact_folded_columns.hpp"

#include "domain/unicode_text.hpp"
#include "store/records/folded_text.hpp"

namespace leadline::store {

ContactFoldedColumns contact_folded_columns(const domain::Contact& c) {
  return {domain::case_fold(c.first_name), fold_optional(c.last_name), fold_optional(c.email),
          contact_search_text(c.first_name, c.last_name, c.email, c.phone, c.company_name),
          visitor_search_text(c.first_name, c.last_name, c.email, c.company_name)};
}

}  // namespace leadline::store
