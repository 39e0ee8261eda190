// Sort columns point at the folded helper columns so that ordering ignores case.
#include "store/records/list_sort_keys.hpp"

namespace leadline::store {

std::vector<sql::SortKey> lead_sort_keys(LeadSortField field) {
  switch (field) {
    case LeadSortField::kUpdatedAt:
      return {{"l.updated_at", false}};
    case LeadSortField::kLeadScore:
      return {{"l.lead_score", true}};
    case LeadSortField::kVisitorName:
      return {{"l.visitor_name_folded", false}};
    case LeadSortField::kCreatedAt:
      break;
  }
  return {{"l.created_at", false}};
}

std::vector<sql::SortKey> contact_sort_keys(ContactSortField field) {
  switch (field) {
    case ContactSortField::kLastActivity:
      return {{"c.last_activity", false}};
    case ContactSortField::kEmail:
      return {{"c.email_folded", true}};
    case ContactSortField::kName:
      return {{"c.first_name_folded", false}, {"c.last_name_folded", true}};
    case ContactSortField::kCreatedAt:
      break;
  }
  return {{"c.created_at", false}};
}

std::vector<sql::SortKey> conversation_sort_keys(ConversationSortField field) {
  if (field == ConversationSortField::kUpdatedAt) return {{"cv.updated_at", false}};
  return {{"cv.created_at", false}};
}

}  // namespace leadline::store
