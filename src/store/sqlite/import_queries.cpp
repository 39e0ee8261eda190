// Import: the statements that store an imported conversation and its messages; the walk
// over the items is store/import_walk.hpp.
#include "store/sqlite/import_queries.hpp"

#include <optional>
#include <string>

#include "store/import_walk.hpp"
#include "store/json_string_array.hpp"
#include "store/sqlite/contact_queries.hpp"
#include "store/sqlite/lead_queries.hpp"
#include "store/sqlite/workspace_queries.hpp"

namespace leadline::store::sqlite {

void insert_imported_conversation(Connection& conn, const domain::WorkspaceId& ws,
                                  const std::string& id, const domain::NewConversation& c,
                                  const std::optional<domain::ContactId>& contact_id,
                                  domain::Timestamp created_at, domain::Timestamp updated_at) {
  auto q = conn.query(
      "INSERT INTO conversations (id, workspace_id, contact_id, source, status, tags, "
      "agent_id, department_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  q.bind_text(id).bind_text(ws.value);
  q.bind_opt_text(contact_id ? std::optional(contact_id->value) : std::nullopt);
  q.bind_text(c.source)
      .bind_text(domain::to_string(c.status))
      .bind_text(encode_string_array(c.tags));
  q.bind_opt_text(c.agent_id ? std::optional(c.agent_id->value) : std::nullopt);
  q.bind_opt_text(c.department_id ? std::optional(c.department_id->value) : std::nullopt);
  q.bind_int(created_at.unix_ms).bind_int(updated_at.unix_ms).run();
}

void insert_imported_message(Connection& conn, const domain::WorkspaceId& ws,
                             const std::string& conversation_id, const std::string& id,
                             const domain::NewMessage& m) {
  auto q = conn.query(
      "INSERT INTO messages (id, workspace_id, conversation_id, sender_type, content, "
      "attachments, status, sender_name, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
  q.bind_text(id)
      .bind_text(ws.value)
      .bind_text(conversation_id)
      .bind_text(m.sender_type)
      .bind_text(m.content)
      .bind_opt_text(m.attachments_json)
      .bind_text(m.status)
      .bind_opt_text(m.sender_name)
      .bind_int(m.created_at.unix_ms)
      .run();
}

std::variant<ImportCounts, ImportFailure> import_items(Connection& conn,
                                                       const domain::WorkspaceId& ws,
                                                       const std::vector<ImportItem>& items,
                                                       domain::Timestamp now) {
  return ImportWalk<Connection>(conn, ws, now).run(items);
}

}  // namespace leadline::store::sqlite
