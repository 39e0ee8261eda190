// The keyset sort columns of each list, by the field the caller sorts on; the column names are
// the same in both backends' list statements.
#pragma once

#include <vector>

#include "store/keyset_order.hpp"
#include "store/list_query.hpp"

namespace leadline::store {

std::vector<SortKey> lead_sort_keys(LeadSortField field);
std::vector<SortKey> contact_sort_keys(ContactSortField field);
std::vector<SortKey> conversation_sort_keys(ConversationSortField field);

}  // namespace leadline::store
