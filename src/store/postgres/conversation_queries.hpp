// SQL for reading and patching conversations (they are created only by import). Callers hold
// the transaction.
#pragma once

#include <optional>

#include "domain/records.hpp"
#include "store/postgres/pg_connection.hpp"
#include "store/store.hpp"

namespace leadline::store::postgres {

// The conversation with its visitor and agent fields, and its messages oldest first.
std::optional<domain::ConversationWithMessages> select_conversation(
    Connection& conn, const domain::WorkspaceId& ws, const domain::ConversationId& id);

// Locks the conversation's row for the rest of the transaction.
UpdateResult<domain::ConversationPatchResult> update_conversation(
    Connection& conn, const domain::WorkspaceId& ws, const domain::ConversationId& id,
    const domain::ConversationPatch& patch, domain::Timestamp now);

Page<domain::Conversation> list_conversations(Connection& conn, const domain::WorkspaceId& ws,
                                              const ConversationListQuery& query);

}  // namespace leadline::store::postgres
