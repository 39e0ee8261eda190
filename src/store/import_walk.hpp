// The backend-neutral walk of an import file: items in order, visitors matched to contacts by
// e-mail, counts, and the first failure. The backend supplies the statements.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "domain/records.hpp"
#include "domain/uuid.hpp"
#include "store/import_rules.hpp"
#include "store/store.hpp"

namespace leadline::store {

// The walk calls these free functions of Connection's namespace (found by argument-dependent
// lookup, so each backend's own query files serve): insert_lead, insert_contact,
// find_contact_by_email, agent_in_workspace, department_in_workspace, raise_contact_activity,
// and the two import-only inserts insert_imported_conversation and insert_imported_message.
template <class Connection>
class ImportWalk {
 public:
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
    ++counts_.conversations;
    counts_.messages += static_cast<std::int64_t>(conversation.messages.size());
    return std::nullopt;
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

}  // namespace leadline::store
