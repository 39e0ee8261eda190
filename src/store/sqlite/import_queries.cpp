// Import: conversations find or create their visitor's contact, carry their messages, and
// raise that contact's last_activity to the newest message.
#include "store/sqlite/import_queries.hpp"

#include <optional>
#include <string>
#include <vector>

#include "domain/uuid.hpp"
#include "store/import_rules.hpp"
#include "store/json_string_array.hpp"
#include "store/sqlite/contact_queries.hpp"
#include "store/sqlite/lead_queries.hpp"
#include "store/sqlite/workspace_queries.hpp"

namespace leadline::store::sqlite {

namespace {

constexpr const char* kDuplicateEmail = "a contact with this email already exists";

class Importer {
 public:
  Importer(Connection& conn, const domain::WorkspaceId& ws, domain::Timestamp now)
      : conn_(conn), ws_(ws), now_(now) {}

  // The failure message, or nothing when the item was stored.
  std::optional<std::string> store(const domain::NewLead& lead) {
    insert_lead(conn_, ws_, lead, now_);
    ++counts_.leads;
    return std::nullopt;
  }

  std::optional<std::string> store(const domain::NewContact& contact) {
    if (std::holds_alternative<EmailConflict>(insert_contact(conn_, ws_, contact, now_))) {
      return kDuplicateEmail;
    }
    ++counts_.contacts;
    return std::nullopt;
  }

  std::optional<std::string> store(const domain::NewConversation& conversation) {
    if (conversation.agent_id && !agent_in_workspace(conn_, ws_, *conversation.agent_id)) {
      return "agent_id does not name an agent of this workspace";
    }
    if (conversation.department_id &&
        !department_in_workspace(conn_, ws_, *conversation.department_id)) {
      return "department_id does not name a department of this workspace";
    }
    const domain::Timestamp created_at = conversation.created_at.value_or(now_);
    std::optional<domain::ContactId> contact_id;
    if (conversation.visitor) {
      auto found = contact_for_visitor(*conversation.visitor, created_at);
      if (!found) return kDuplicateEmail;
      contact_id = *found;
    }
    const domain::Timestamp updated_at = conversation_updated_at(conversation, created_at);
    const std::string id = insert_conversation(conversation, contact_id, created_at, updated_at);
    const auto message_ids = ordered_message_ids(conversation.messages.size(), now_);
    for (std::size_t i = 0; i < message_ids.size(); ++i) {
      insert_message(id, message_ids[i], conversation.messages[i]);
    }
    if (contact_id && !conversation.messages.empty()) {
      raise_contact_activity(conn_, ws_, *contact_id, updated_at);
    }
    ++counts_.conversations;
    counts_.messages += static_cast<std::int64_t>(conversation.messages.size());
    return std::nullopt;
  }

  const ImportCounts& counts() const { return counts_; }

 private:
  // A visitor with an e-mail is the workspace's contact of that address, created when there is
  // none; a visitor without one is always a new contact, dated like its conversation.
  std::optional<domain::ContactId> contact_for_visitor(const domain::NewContact& visitor,
                                                       domain::Timestamp created_at) {
    if (visitor.email) {
      if (auto existing = find_contact_by_email(conn_, ws_, *visitor.email)) return existing;
    }
    domain::NewContact fresh = visitor;
    fresh.created_at = created_at;
    auto created = insert_contact(conn_, ws_, fresh, now_);
    if (const auto* contact = std::get_if<domain::Contact>(&created)) {
      ++counts_.contacts;
      return contact->id;
    }
    return std::nullopt;
  }

  std::string insert_conversation(const domain::NewConversation& c,
                                  const std::optional<domain::ContactId>& contact_id,
                                  domain::Timestamp created_at, domain::Timestamp updated_at) {
    std::string id = domain::new_uuid_v7(now_.unix_ms);
    auto q = conn_.query(
        "INSERT INTO conversations (id, workspace_id, contact_id, source, status, tags, "
        "agent_id, department_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    q.bind_text(id).bind_text(ws_.value);
    q.bind_opt_text(contact_id ? std::optional(contact_id->value) : std::nullopt);
    q.bind_text(c.source)
        .bind_text(domain::to_string(c.status))
        .bind_text(encode_string_array(c.tags));
    q.bind_opt_text(c.agent_id ? std::optional(c.agent_id->value) : std::nullopt);
    q.bind_opt_text(c.department_id ? std::optional(c.department_id->value) : std::nullopt);
    q.bind_int(created_at.unix_ms).bind_int(updated_at.unix_ms).run();
    return id;
  }

  void insert_message(const std::string& conversation_id, const std::string& id,
                      const domain::NewMessage& m) {
    auto q = conn_.query(
        "INSERT INTO messages (id, workspace_id, conversation_id, sender_type, content, "
        "attachments, status, sender_name, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    q.bind_text(id)
        .bind_text(ws_.value)
        .bind_text(conversation_id)
        .bind_text(m.sender_type)
        .bind_text(m.content)
        .bind_opt_text(m.attachments_json)
        .bind_text(m.status)
        .bind_opt_text(m.sender_name)
        .bind_int(m.created_at.unix_ms)
        .run();
  }

  Connection& conn_;
  const domain::WorkspaceId& ws_;
  domain::Timestamp now_;
  ImportCounts counts_;
};

}  // namespace

std::variant<ImportCounts, ImportFailure> import_items(Connection& conn,
                                                       const domain::WorkspaceId& ws,
                                                       const std::vector<ImportItem>& items,
                                                       domain::Timestamp now) {
  Importer importer(conn, ws, now);
  for (const ImportItem& item : items) {
    auto failure =
        std::visit([&](const auto& record) { return importer.store(record); }, item.record);
    if (failure) return ImportFailure{item.line, std::move(*failure)};
  }
  return importer.counts();
}

}  // namespace leadline::store::sqlite
