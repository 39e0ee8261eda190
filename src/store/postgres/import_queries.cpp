// Import: the statements that store an imported conversation and its messages; the walk
// over the items is store/import_walk.hpp.
#include "store/postgres/import_queries.hpp"

#include <optional>
#include <string>

#include "store/import_walk.hpp"
#include "store/json_string_array.hpp"
#include "store/postgres/contact_queries.hpp"
#include "store/postgres/lead_queries.hpp"
#include "store/postgres/row_values.hpp"
#include "store/postgres/workspace_queries.hpp"

namespace leadline::store::postgres {

void insert_imported_conversation(Connection& conn, const domain::WorkspaceId& ws,
                                  const std::string& id, const domain::NewConversation& c,
                                  const std::optional<domain::ContactId>& contact_id,
                                  domain::Timestamp created_at, domain::Timestamp updated_at) {
  conn.query(
      "INSERT INTO conversations (id, workspace_id, contact_id, source, status, tags, "
      "agent_id, department_id, created_at, updated_at) "
      "VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10)",
      Params()
          .text(id)
          .text(ws.value)
          .opt_text(id_value(contact_id))
          .text(c.source)
          .text(domain::to_string(c.status))
          .text(encode_string_array(c.tags))
          .opt_text(id_value(c.agent_id))
          .opt_text(id_value(c.department_id))
          .int64(created_at.unix_ms)
          .int64(updated_at.unix_ms));
}

void insert_imported_message(Connection& conn, const domain::WorkspaceId& ws,
                             const std::string& conversation_id, const std::string& id,
                             const domain::NewMessage& m) {
  conn.query(
      "INSERT INTO messages (id, workspace_id, conversation_id, sender_type, content, "
      "attachments, status, sender_name, created_at) "
      "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
      Params()
          .text(id)
          .text(ws.value)
          .text(conversation_id)
          .text(m.sender_type)
          .text(m.content)
          .opt_text(m.attachments_json)
          .text(m.status)
          .opt_text(m.sender_name)
          .int64(m.created_at.unix_ms));
}

std::variant<ImportCounts, ImportFailure> import_items(Connection& conn,
                                                       const domain::WorkspaceId& ws,
                                                       const std::vector<ImportItem>& items,
                                                       domain::Timestamp now) {
  // Counted once at the end rather than per row (see record_counts_track in 0002).
  conn.query("SELECT set_config('leadline.deferred_counts', 'on', true)");
  auto result = ImportWalk<Connection>(conn, ws, now).run(items);
  if (std::holds_alternative<ImportCounts>(result)) {
    conn.query("SELECT record_counts_recount($1)", Params().text(ws.value));
  }
  conn.query("SELECT set_config('leadline.deferred_counts', 'off', true)");
  return result;
}

}  // namespace leadline::store::postgres
