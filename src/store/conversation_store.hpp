// Conversations with their messages: read, PATCH (status, tags, agent, department) and
// keyset-paged lists. They are created only by imports (import_store.hpp).
#pragma once

#include <optional>

#include "domain/records.hpp"
#include "store/list_query.hpp"
#include "store/operation_runner.hpp"
#include "store/outcomes.hpp"
#include "store/sql/list_statements.hpp"

namespace leadline::store {

class ConversationStore {
 public:
  explicit ConversationStore(OperationRunner& runner) : runner_(runner) {}

  // With every message, oldest first.
  std::optional<domain::ConversationWithMessages> get(const domain::WorkspaceId& ws,
                                                      const domain::ConversationId& id);
  // What get-one shows, without copies: `head` sees the conversation (without the list's
  // last_message and message_count, its agent_id and department_id), then `each_message` every
  // message oldest first, in one record refilled per row. False when the workspace has no
  // conversation `id`, and then neither is called.
  bool visit(const domain::WorkspaceId& ws, const domain::ConversationId& id,
             const ItemVisitor<domain::Conversation>& head,
             const ItemVisitor<domain::Message>& each_message);
  UpdateResult<domain::ConversationPatchResult> update(const domain::WorkspaceId& ws,
                                                       const domain::ConversationId& id,
                                                       const domain::ConversationPatch& patch);
  Page<domain::Conversation> list(const domain::WorkspaceId& ws,
                                  const ConversationListQuery& query);

 private:
  OperationRunner& runner_;
};

// The list-item shape of one conversation, inside another operation's transaction.
std::optional<domain::Conversation> select_conversation(sql::Connection& conn,
                                                        const domain::WorkspaceId& ws,
                                                        const domain::ConversationId& id);

// The statements list() runs, for query plan checks; with `total_count`, the page it runs after
// counting that many matches.
sql::ListStatements conversation_list_statements(
    const sql::Dialect& dialect, const domain::WorkspaceId& ws, const ConversationListQuery& query,
    std::optional<std::int64_t> total_count = std::nullopt);

}  // namespace leadline::store
