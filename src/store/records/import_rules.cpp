// UUIDv7s of one millisecond are not generated in order, so they are sorted before use.
#include "store/records/import_rules.hpp"

#include <algorithm>

#include "domain/uuid.hpp"

namespace leadline::store {

domain::Timestamp conversation_updated_at(const domain::NewConversation& conversation,
                                          domain::Timestamp created_at) {
  if (conversation.messages.empty()) return created_at;
  return std::max_element(conversation.messages.begin(), conversation.messages.end(),
                          [](const auto& a, const auto& b) { return a.created_at < b.created_at; })
      ->created_at;
}

std::vector<std::string> ordered_message_ids(std::size_t count, domain::Timestamp now) {
  std::vector<std::string> ids(count);
  for (auto& id : ids) id = domain::new_uuid_v7(now.unix_ms);
  std::sort(ids.begin(), ids.end());
  return ids;
}

}  // namespace leadline::store
