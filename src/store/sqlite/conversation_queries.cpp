// Conversations: visitor fields come from the linked contact, agent fields from the agent,
// last_message and message_count from the messages, all in one statement per page.
#include "store/sqlite/conversation_queries.hpp"

#include "store/json_string_array.hpp"
#include "store/list_sort_keys.hpp"
#include "store/record_patches.hpp"
#include "store/record_readers.hpp"
#include "store/sqlite/list_page.hpp"
#include "store/sqlite/workspace_queries.hpp"

namespace leadline::store::sqlite {

namespace {

constexpr const char* kConversationColumns =
    "cv.id, cv.source, cv.status, cv.tags, cv.created_at, cv.updated_at, cv.agent_id, "
    "cv.department_id, ct.first_name, ct.last_name, ct.email, ct.phone, ct.company_name, "
    "a.first_name, a.last_name, a.email, "
    "(SELECT m.content FROM messages m WHERE m.conversation_id = cv.id "
    "ORDER BY m.created_at DESC, m.id DESC LIMIT 1), "
    "(SELECT COUNT(*) FROM messages m WHERE m.conversation_id = cv.id)";
constexpr const char* kConversationFrom =
    "conversations cv LEFT JOIN contacts ct ON ct.id = cv.contact_id "
    "LEFT JOIN agents a ON a.workspace_id = cv.workspace_id AND a.id = cv.agent_id";

std::optional<ConversationFields> select_patchable(Connection& conn, const domain::WorkspaceId& ws,
                                                   const domain::ConversationId& id) {
  auto q = conn.query(
      "SELECT status, tags, agent_id, department_id, updated_at FROM conversations "
      "WHERE workspace_id = ? AND id = ?");
  q.bind_text(ws.value).bind_text(id.value);
  if (!q.step()) return std::nullopt;
  return read_conversation_patchable(q);
}

}  // namespace

std::optional<domain::ConversationWithMessages> select_conversation(
    Connection& conn, const domain::WorkspaceId& ws, const domain::ConversationId& id) {
  domain::ConversationWithMessages out;
  {
    auto q = conn.query(std::string("SELECT ") + kConversationColumns + " FROM " +
                        kConversationFrom + " WHERE cv.workspace_id = ? AND cv.id = ?");
    q.bind_text(ws.value).bind_text(id.value);
    if (!q.step()) return std::nullopt;
    out.conversation = read_conversation(q);
  }
  auto q = conn.query(
      "SELECT id, sender_type, content, attachments, status, created_at, sender_name "
      "FROM messages WHERE workspace_id = ? AND conversation_id = ? ORDER BY created_at, id");
  q.bind_text(ws.value).bind_text(id.value);
  while (q.step()) out.messages.push_back(read_message(q));
  return out;
}

UpdateResult<domain::ConversationPatchResult> update_conversation(
    Connection& conn, const domain::WorkspaceId& ws, const domain::ConversationId& id,
    const domain::ConversationPatch& patch, domain::Timestamp now) {
  const auto current = select_patchable(conn, ws, id);
  if (!current) return NotFound{};
  if (patch.agent_id.value && !agent_in_workspace(conn, ws, *patch.agent_id.value)) {
    return InvalidReference{"agent_id"};
  }
  if (patch.department_id.value && !department_in_workspace(conn, ws, *patch.department_id.value)) {
    return InvalidReference{"department_id"};
  }
  ConversationFields next = apply_patch(*current, patch);
  if (!(next == *current)) {
    next.updated_at = advance_updated_at(current->updated_at, now);
    auto q = conn.query(
        "UPDATE conversations SET status = ?, tags = ?, agent_id = ?, department_id = ?, "
        "updated_at = ? WHERE workspace_id = ? AND id = ?");
    q.bind_text(domain::to_string(next.status)).bind_text(encode_string_array(next.tags));
    q.bind_opt_text(next.agent_id ? std::optional(next.agent_id->value) : std::nullopt);
    q.bind_opt_text(next.department_id ? std::optional(next.department_id->value) : std::nullopt);
    q.bind_int(next.updated_at.unix_ms).bind_text(ws.value).bind_text(id.value).run();
  }
  return domain::ConversationPatchResult{id, next.status, next.tags, next.updated_at};
}

Page<domain::Conversation> list_conversations(Connection& conn, const domain::WorkspaceId& ws,
                                              const ConversationListQuery& query) {
  ListSql sql;
  sql.columns = kConversationColumns;
  sql.from = kConversationFrom;
  sql.where = "cv.workspace_id = ?";
  sql.params.emplace_back(ws.value);
  if (query.status) {
    sql.where += " AND cv.status = ?";
    sql.params.emplace_back(std::string(domain::to_string(*query.status)));
  }
  if (query.tag) {
    sql.where += " AND EXISTS (SELECT 1 FROM json_each(cv.tags) WHERE json_each.value = ?)";
    sql.params.emplace_back(*query.tag);
  }
  if (!query.search_folded.empty()) {
    // Matches the linked contact's first, last, e-mail and company (not phone). Unlinked
    // conversations never match a search.
    add_search(sql, "ct", "contacts_visitor_search", "visitor_search_folded", query.search_folded);
  }
  if (query.search_folded.empty() && !query.tag) {
    count_from_record_counts(
        sql, "conversation", ws.value,
        query.status ? std::optional<std::string>(domain::to_string(*query.status)) : std::nullopt,
        sqlite_dialect());
  }
  sql.keys = conversation_sort_keys(query.sort.field);
  sql.id_expr = "cv.id";
  sql.direction = query.sort.direction;
  return run_list<domain::Conversation>(conn, sql, query.page, read_conversation<Query>);
}

}  // namespace leadline::store::sqlite
