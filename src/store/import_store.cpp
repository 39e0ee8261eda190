// The walk of an import batch: items in order, visitors matched to contacts by e-mail, counts,
// and the first failure; the statements are the stores' own, run in the batch's transaction.
#include "store/import_store.hpp"

#include <exception>
#include <optional>
#include <string>
#include <unordered_set>

#include "domain/unicode_text.hpp"
#include "domain/uuid.hpp"
#include "record_json/event_shapes.hpp"
#include "store/contact_store.hpp"
#include "store/conversation_store.hpp"
#include "store/lead_store.hpp"
#include "store/records/event_outbox.hpp"
#include "store/records/import_rules.hpp"
#include "store/records/json_string_array.hpp"
#include "store/records/new_records.hpp"
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

// Leads and contacts are collected, with their events, and written many rows per statement
// (sql::Connection::insert_rows): the tables' indexes and triggers then take a whole batch at
// once. A conversation reads what came before it, so everything collected is written first;
// conversations themselves are written one by one.
class ImportWalk {
 public:
  using Connection = sql::Connection;

  ImportWalk(Connection& conn, const domain::WorkspaceId& ws, domain::Timestamp now)
      : conn_(conn),
        ws_(ws),
        now_(now),
        events_(conn, ws),
        had_contacts_(conn.query("SELECT 1 FROM contacts WHERE workspace_id = ? LIMIT 1",
                                 sql::Params().id(ws))
                          .next()) {}

  // Stores the items in order; stops at the first one that cannot be stored and says which.
  std::variant<ImportCounts, ImportFailure> run(const std::vector<ImportItem>& items) {
    for (const ImportItem& item : items) {
      auto failure = std::visit([&](const auto& record) { return store(record); }, item.record);
      if (failure) return ImportFailure{item.line, std::move(*failure)};
      if (leads_.size() + contacts_.size() >= kRowsPerFlush) flush();
    }
    flush();
    return counts_;
  }

 private:
  static constexpr const char* kDuplicateEmail = "a contact with this email already exists";
  // Records collected before they are written. Fewer, larger statements copy each index page
  // to SQLite's statement journal fewer times (measured: 4,096 wrote 1.7x the blocks of 16,384
  // for 100k leads on top of 100k); 16,384 records with their events and JSON take about 90 MB,
  // beside the decoded batch's 100 MB.
  static constexpr std::size_t kRowsPerFlush = 16384;

  // Writes what was collected: the records, then their events in the order they were added.
  void flush() {
    conn_.insert_rows("contacts", new_contact_columns(), contacts_);
    insert_lead_rows(conn_, ws_, leads_);
    events_.flush(conn_);
    contacts_.clear();
    leads_.clear();
  }

  // The failure message, or nothing when the item was stored.
  std::optional<std::string> store(const domain::NewLead& lead) {
    const domain::Lead out = new_lead_record(lead, now_);
    leads_.push_back(new_lead_values(ws_, out));
    events_.add("lead.created", record_json::lead_data(out), now_);
    ++counts_.leads;
    return std::nullopt;
  }

  std::optional<std::string> store(const domain::NewContact& contact) {
    const domain::Contact out = new_contact_record(contact, now_);
    if (out.email) {
      // Checked here, so the bulk insert never meets the unique index: against this batch's
      // contacts (visitors' included), then against those stored before it, if any: a round
      // trip each on PostgreSQL, which a bulk load into a new workspace goes without.
      if (!collected_emails_.insert(domain::case_fold(*out.email)).second ||
          (had_contacts_ && find_contact_by_email(conn_, ws_, *out.email))) {
        return kDuplicateEmail;
      }
    }
    contacts_.push_back(new_contact_values(ws_, out, contact.metadata_json));
    events_.add("contact.created", record_json::contact_data(out), now_);
    ++counts_.contacts;
    return std::nullopt;
  }

  std::optional<std::string> store(const domain::NewConversation& conversation) {
    flush();
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
      if (visitor.email) collected_emails_.insert(domain::case_fold(*visitor.email));
      ++counts_.contacts;
      return contact->id;
    }
    return std::nullopt;
  }

  Connection& conn_;
  const domain::WorkspaceId& ws_;
  domain::Timestamp now_;
  ImportCounts counts_;
  std::vector<sql::Params> leads_;
  std::vector<sql::Params> contacts_;
  EventRows events_;
  // The workspace had contacts before this batch.
  bool had_contacts_;
  // The folded e-mails of the contacts taken so far (lines and visitors).
  std::unordered_set<std::string> collected_emails_;
};

// The tables a stored batch wrote to, for the engine's after-import upkeep: a conversation's
// visitor may be a contact created or touched (last_activity), and every record has its event.
std::string tables_written(const ImportCounts& counts) {
  std::string tables;
  if (counts.leads > 0) tables.append("leads, ");
  if (counts.contacts > 0 || counts.conversations > 0) tables.append("contacts, ");
  if (counts.conversations > 0) tables.append("conversations, messages, ");
  tables.append("events, webhook_deliveries, record_counts, lead_versions");
  return tables;
}

}  // namespace

std::variant<ImportCounts, ImportFailure> ImportStore::apply(const domain::WorkspaceId& ws,
                                                             const std::vector<ImportItem>& items) {
  static const Operation op("import_batch");
  static const Operation upkeep("import_upkeep");
  sql::ImportBatchSize batch;
  for (const ImportItem& item : items) {
    if (std::holds_alternative<domain::NewLead>(item.record)) ++batch.leads;
    if (std::holds_alternative<domain::NewContact>(item.record)) ++batch.contacts;
  }
  auto result = runner_.write_if(
      op,
      [&](sql::Connection& c) {
        c.dialect().before_import(c, ws, batch);
        auto result = ImportWalk(c, ws, runner_.now()).run(items);
        // A failed batch is rolled back whole, so only a stored one needs finishing.
        if (const auto* counts = std::get_if<ImportCounts>(&result)) {
          c.dialect().after_import(c, ws, tables_written(*counts));
        }
        return result;
      },
      [](const auto& result) { return std::holds_alternative<ImportCounts>(result); });
  if (const auto* counts = std::get_if<ImportCounts>(&result)) {
    // The rows are committed whatever happens here: upkeep that fails (the server gone away)
    // only leaves the work to PostgreSQL's autovacuum, as before, and is not the import's error.
    try {
      runner_.read(upkeep, [&](sql::Connection& c) {
        c.dialect().after_import_commit(c, tables_written(*counts));
      });
    } catch (const std::exception&) {
    }
  }
  return result;
}

}  // namespace leadline::store
