// Conversations: visitor fields come from the linked contact, agent fields from the agent,
// last_message and message_count from the messages, all in one statement per page.
#include "store/postgres/conversation_queries.hpp"

#include "store/json_string_array.hpp"
#include "store/list_sort_keys.hpp"
#include "store/postgres/list_page.hpp"
#include "store/postgres/row_values.hpp"
#include "store/postgres/workspace_queries.hpp"
#include "store/record_patches.hpp"
#include "store/record_readers.hpp"

namespace leadline::store::postgres {

namespace {

constexpr const char* kConversationColumns =
    "cv.id, cv.source, cv.status, cv.tags, cv.created_at, cv.updated_at, cv.agent_id, "
    "cv.department_id, ct.first_name, ct.last_name, ct.email, ct.phone, ct.company_name, "
    "a.first_name, a.last_name, a.email, "
    "(SELECT m.content FROM messages m WHERE m.workspace_id = cv.workspace_id "
    "AND m.conversation_id = cv.id ORDER BY m.created_at DESC, m.id DESC LIMIT 1), "
    "(SELECT COUNT(*) FROM messages m WHERE m.workspace_id = cv.workspace_id "
    "AND m.conversation_id = cv.id)";
constexpr const char* kConversationFrom =
    "conversations cv "
    "LEFT JOIN contacts ct ON ct.workspace_id = cv.workspace_id AND ct.id = cv.contact_id "
    "LEFT JOIN agents a ON a.workspace_id = cv.workspace_id AND a.id = cv.agent_id";

std::optional<ConversationFields> lock_patchable(Connection& conn, const domain::WorkspaceId& ws,
                                                 const domain::ConversationId& id) {
  const Result r = conn.query(
      "SELECT status, tags, agent_id, department_id, updated_at FROM conversations "
      "WHERE workspace_id = $1 AND id = $2 FOR UPDATE",
      Params().text(ws.value).text(id.value));
  if (r.rows() == 0) return std::nullopt;
  return read_conversation_patchable(Row(r, 0));
}

}  // namespace

std::optional<domain::ConversationWithMessages> select_conversation(
    Connection& conn, const domain::WorkspaceId& ws, const domain::ConversationId& id) {
  domain::ConversationWithMessages out;
  {
    const Result r =
        conn.query(std::string("SELECT ") + kConversationColumns + " FROM " + kConversationFrom +
                       " WHERE cv.workspace_id = $1 AND cv.id = $2",
                   Params().text(ws.value).text(id.value));
    if (r.rows() == 0) return std::nullopt;
    out.conversation = read_conversation(Row(r, 0));
  }
  const Result r = conn.query(
      "SELECT id, sender_type, content, attachments, status, created_at, sender_name "
      "FROM messages WHERE workspace_id = $1 AND conversation_id = $2 ORDER BY created_at, id",
      Params().text(ws.value).text(id.value));
  for (int i = 0; i < r.rows(); ++i) out.messages.push_back(read_message(Row(r, i)));
  return out;
}

UpdateResult<domain::ConversationPatchResult> update_conversation(
    Connection& conn, const domain::WorkspaceId& ws, const domain::ConversationId& id,
    const domain::ConversationPatch& patch, domain::Timestamp now) {
  const auto current = lock_patchable(conn, ws, id);
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
    conn.query(
        "UPDATE conversations SET status = $1, tags = $2::jsonb, agent_id = $3, "
        "department_id = $4, updated_at = $5 WHERE workspace_id = $6 AND id = $7",
        Params()
            .text(domain::to_string(next.status))
            .text(encode_string_array(next.tags))
            .opt_text(id_value(next.agent_id))
            .opt_text(id_value(next.department_id))
            .int64(next.updated_at.unix_ms)
            .text(ws.value)
            .text(id.value));
  }
  return domain::ConversationPatchResult{id, next.status, next.tags, next.updated_at};
}

Page<domain::Conversation> list_conversations(Connection& conn, const domain::WorkspaceId& ws,
                                              const ConversationListQuery& query) {
  ListSql sql;
  sql.columns = kConversationColumns;
  sql.from = kConversationFrom;
  sql.where = "cv.workspace_id = " + bind(sql, ws.value);
  if (query.status) {
    sql.where += " AND cv.status = " + bind(sql, std::string(domain::to_string(*query.status)));
  }
  if (!query.search_folded.empty()) {
    // Matches the linked contact's first, last, e-mail and company (not phone). Unlinked
    // conversations never match a search.
    sql.where +=
        " AND ct.visitor_search_folded LIKE " + bind(sql, contains_pattern(query.search_folded));
  }
  if (query.tag) {
    sql.where += " AND cv.tags @> " + bind(sql, encode_string_array({*query.tag})) + "::jsonb";
  }
  if (query.search_folded.empty() && !query.tag) {
    count_from_record_counts(
        sql, "conversation", ws.value,
        query.status ? std::optional<std::string>(domain::to_string(*query.status)) : std::nullopt,
        postgres_dialect());
  }
  sql.keys = conversation_sort_keys(query.sort.field);
  sql.id_expr = "cv.id";
  sql.direction = query.sort.direction;
  return run_list<domain::Conversation>(conn, sql, query.page, read_conversation<Row>);
}

}  // namespace leadline::store::postgres
