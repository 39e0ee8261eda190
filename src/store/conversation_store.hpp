// Conversations with their messages: read, PATCH (status, tags, agent, department) and
// keyset-paged lists. They are created only by imports (import_store.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "domain/records.hpp"
#include "store/list_query.hpp"
#include "store/operation_runner.hpp"
#include "store/outcomes.hpp"
#include "store/sql/list_statements.hpp"
#include "store/thread_local_lru.hpp"

namespace leadline::store {

// Per I/O thread: two on the benchmark's two cores. A conversation whose rendering takes more
// than a quarter of it is written anew every time.
inline constexpr std::size_t kRenderedConversationBytes = 4 << 20;

// How a get writes one conversation: `head` sees the conversation (without the list's
// last_message and message_count, its agent_id and department_id), then `message` every
// message oldest first, in one record refilled per row, then `end` is called.
struct ConversationWriter {
  ItemVisitor<domain::Conversation> head;
  ItemVisitor<domain::Message> message;
  std::function<void()> end;
};

class ConversationStore {
 public:
  explicit ConversationStore(OperationRunner& runner)
      : runner_(runner), renderings_(kRenderedConversationBytes) {}

  // With every message, oldest first.
  std::optional<domain::ConversationWithMessages> get(const domain::WorkspaceId& ws,
                                                      const domain::ConversationId& id);
  // Appends what get-one shows to `out`, written by `writer` as the rows are read, or the bytes
  // this thread kept from the last time when the conversation's version says nothing they show
  // has changed since (docs/design.md, "Rendered conversations"). False when the workspace has
  // no conversation `id`; then `out` is as it was and `writer` was not called.
  bool render(const domain::WorkspaceId& ws, const domain::ConversationId& id, std::string& out,
              const ConversationWriter& writer);
  UpdateResult<domain::ConversationPatchResult> update(const domain::WorkspaceId& ws,
                                                       const domain::ConversationId& id,
                                                       const domain::ConversationPatch& patch);
  Page<domain::Conversation> list(const domain::WorkspaceId& ws,
                                  const ConversationListQuery& query);

 private:
  // What a get wrote, at the conversation version it read.
  struct KeptRendering {
    std::int64_t version = 0;
    std::string bytes;
  };

  OperationRunner& runner_;
  ThreadLocalLru<KeptRendering> renderings_;
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
