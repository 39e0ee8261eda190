// The keyset sort columns of each list, by the field the caller sorts on; the column names are
// the same in both backends' list statements.
#pragma once

#include <vector>

#include "store/list_query.hpp"
#include "store/sql/keyset_clause.hpp"

namespace leadline::store {

std::vector<sql::SortKey> lead_sort_keys(LeadSortField field);
std::vector<sql::SortKey> contact_sort_keys(ContactSortField field);
std::vector<sql::SortKey> conversation_sort_keys(ConversationSortField field);

}  // namespace leadline::store
