// The parts of importing a conversation that do not depend on the backend: its updated_at and
// the ids of its messages.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "domain/records.hpp"

namespace leadline::store {

// The newest message's time, or created_at for a conversation without messages.
domain::Timestamp conversation_updated_at(const domain::NewConversation& conversation,
                                          domain::Timestamp created_at);

// Messages are read back ordered by (created_at, id); ascending ids handed out in file order
// keep messages of the same millisecond in the order the file gives them.
std::vector<std::string> ordered_message_ids(std::size_t count, domain::Timestamp now);

}  // namespace leadline::store
