// The walk of an import batch: items in order, visitors matched to contacts by e-mail, counts,
// and the first failure; the statements are the stores' own, run in the batch's transaction.
#include "store/import_store.hpp"

#include <optional>

#include "domain/uuid.hpp"
#include "record_json/event_shapes.hpp"
#include "store/contact_store.hpp"
#include "store/conversation_store.hpp"
#include "store/lead_store.hpp"
#include "store/records/event_outbox.hpp"
#include "store/records/import_rules.hpp"
#include "store/records/json_string_array.hpp"
#include "store/workspace_store.hpp"

namespace leadline::store {

namespace {

void insert_imported_conversation(sql::Connection& conn, const domain::WorkspaceId& ws,
                                  const std::string& id, const domain::NewConversation& c,
                                  const std::optional<domain::ContactId>& contact_id,
                                  domain::Timestamp created_at, domain::Timestamp updated_at) {
  conn.execute(
      "INSERT INTO conversations (id, workspace_id, contact_id, source, status, tags, "
      "agent_id, department_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      sql::Params()
          .text(id)
          .id(ws)
          .opt_id(contact_id)
          .text(c.source)
          .text(domain::to_string(c.status))
          .text(encode_string_array(c.tags))
          .opt_id(c.agent_id)
          .opt_id(c.department_id)
          .int64(created_at.unix_ms)
          .int64(updated_at.unix_ms));
}

void insert_imported_message(sql::Connection& conn, const domain::WorkspaceId& ws,
                             const std::string& conversation_id, const std::string& id,
                             const domain::NewMessage& m) {
  conn.execute(
      "INSERT INTO messages (id, workspace_id, conversation_id, sender_type, content, "
      "attachments, status, sender_name, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
      sql::Params()
          .text(id)
          .id(ws)
          .text(conversation_id)
          .text(m.sender_type)
          .text(m.content)
          .opt_text(m.attachments_json)
          .text(m.status)
          .opt_text(m.sender_name)
          .int64(m.created_at.unix_ms));
}

class ImportWalk {
 public:
  using Connection = sql::Connection;

  ImportWalk(Connection& conn, const domain::WorkspaceId& ws, domain::Timestamp now)
      : conn_(conn), ws_(ws), now_(now) {}

  // Stores the items in order; stops at the first one that cannot be stored and says which.
  std::variant<ImportCounts, ImportFailure> run(const std::vector<ImportItem>& items) {
    for (const ImportItem& item : items) {
      auto failure = std::visit([&](const auto& record) { return store(record); }, item.record);
      if (failure) return ImportFailure{item.line, std::move(*failure)};
    }
    return counts_;
  }

 private:
  static constexpr const char* kDuplicateEmail = "a contact with this email already exists";

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
    const std::string id = domain::new_uuid_v7(now_.unix_ms);
    insert_imported_conversation(conn_, ws_, id, conversation, contact_id, created_at, updated_at);
    const auto message_ids = ordered_message_ids(conversation.messages.size(), now_);
    for (std::size_t i = 0; i < message_ids.size(); ++i) {
      insert_imported_message(conn_, ws_, id, message_ids[i], conversation.messages[i]);
    }
    if (contact_id && !conversation.messages.empty()) {
      raise_contact_activity(conn_, ws_, *contact_id, updated_at);
    }
    record_conversation_events(domain::ConversationId{id}, message_ids, conversation.messages);
    ++counts_.conversations;
    counts_.messages += static_cast<std::int64_t>(conversation.messages.size());
    return std::nullopt;
  }

  // conversation.created with the conversation as lists show it, then message.created for each
  // message in the conversation's order.
  void record_conversation_events(const domain::ConversationId& id,
                                  const std::vector<std::string>& message_ids,
                                  const std::vector<domain::NewMessage>& messages) {
    record_event(conn_, ws_, "conversation.created",
                 record_json::conversation_data(*select_conversation(conn_, ws_, id)), {}, now_);
    for (std::size_t i = 0; i < message_ids.size(); ++i) {
      const domain::NewMessage& m = messages[i];
      const domain::Message message{domain::MessageId{message_ids[i]},
                                    m.sender_type,
                                    m.content,
                                    m.attachments_json,
                                    m.status,
                                    m.created_at,
                                    m.sender_name};
      record_event(conn_, ws_, "message.created", record_json::message_data(id, message), {}, now_);
    }
  }

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

  Connection& conn_;
  const domain::WorkspaceId& ws_;
  domain::Timestamp now_;
  ImportCounts counts_;
};

}  // namespace

std::variant<ImportCounts, ImportFailure> ImportStore::apply(const domain::WorkspaceId& ws,
                                                             const std::vector<ImportItem>& items) {
  static const Operation op("import_batch");
  return runner_.write_if(
      op,
      [&](sql::Connection& c) {
        c.dialect().before_import(c, ws);
        auto result = ImportWalk(c, ws, runner_.now()).run(items);
        // A failed batch is rolled back whole, so only a stored one needs finishing.
        if (std::holds_alternative<ImportCounts>(result)) c.dialect().after_import(c, ws);
        return result;
      },
      [](const auto& result) { return std::holds_alternative<ImportCounts>(result); });
}

}  // namespace leadline::store
