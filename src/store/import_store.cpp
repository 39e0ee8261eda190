// The walk of an import batch: items in order, visitors matched to contacts by e-mail, counts,
// and the first failure; the statements are the stores' own, run in the batch's transaction.
#include "store/import_store.hpp"

#include <algorithm>
#include <exception>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>

#include "domain/unicode_text.hpp"
#include "domain/uuid.hpp"
#include "record_json/event_shapes.hpp"
#include "store/contact_store.hpp"
#include "store/lead_store.hpp"
#include "store/records/event_outbox.hpp"
#include "store/records/import_rules.hpp"
#include "store/records/json_string_array.hpp"
#include "store/records/new_records.hpp"
#include "store/workspace_store.hpp"

namespace leadline::store {

namespace {

constexpr const char* kConversationColumns =
    "id, workspace_id, contact_id, source, status, tags, agent_id, department_id, created_at, "
    "updated_at, message_count, last_message";
constexpr const char* kMessageColumns =
    "id, workspace_id, conversation_id, sender_type, content, attachments, status, sender_name, "
    "created_at";

sql::Params conversation_values(const domain::WorkspaceId& ws, const domain::Conversation& c,
                                const std::optional<domain::ContactId>& contact_id) {
  sql::Params params;
  params.id(c.id)
      .id(ws)
      .opt_id(contact_id)
      .text(c.source)
      .text(domain::to_string(c.status))
      .text(encode_string_array(c.tags))
      .opt_id(c.agent_id)
      .opt_id(c.department_id)
      .int64(c.created_at.unix_ms)
      .int64(c.updated_at.unix_ms)
      .int64(c.message_count)
      .opt_text(c.last_message);
  return params;
}

sql::Params message_values(const domain::WorkspaceId& ws,
                           const domain::ConversationId& conversation, const domain::Message& m) {
  sql::Params params;
  params.id(m.id)
      .id(ws)
      .id(conversation)
      .text(m.sender_type)
      .text(m.content)
      .opt_text(m.attachments_json)
      .text(m.status)
      .opt_text(m.sender_name)
      .int64(m.created_at.unix_ms);
  return params;
}

// Every record is collected, with its events, and written many rows per statement
// (sql::Connection::insert_rows): the tables' indexes and triggers then take a whole batch at
// once, and PostgreSQL a COPY instead of a round trip per row. What a conversation needs of what
// came before it is kept here as it is collected: the contacts by e-mail (its visitor), the
// agents and departments it names. The stored contacts the batch's e-mails name are read first,
// a thousand per statement (when the workspace had any); a stored agent or department is read
// once each.
class ImportWalk {
 public:
  using Connection = sql::Connection;

  ImportWalk(Connection& conn, const domain::WorkspaceId& ws, domain::Timestamp now)
      : conn_(conn), ws_(ws), now_(now), events_(conn, ws) {}

  // Stores the items in order; stops at the first one that cannot be stored and says which.
  std::variant<ImportCounts, ImportFailure> run(const std::vector<ImportItem>& items) {
    match_stored_contacts(items);
    for (const ImportItem& item : items) {
      auto failure = std::visit([&](const auto& record) { return store(record); }, item.record);
      if (failure) return ImportFailure{item.line, std::move(*failure)};
      if (leads_.size() + contacts_.size() + conversations_.size() + messages_.size() >=
          kRowsPerFlush) {
        flush();
      }
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

  // A contact not written yet, kept whole so that a later conversation of its visitor can still
  // move its last_activity.
  struct PendingContact {
    domain::Contact record;
    std::optional<std::string> metadata_json;
  };
  // A contact taken in this batch, or a stored one a visitor was matched to.
  struct KnownContact {
    ContactPeople people;
    // Its row is contacts_[pending] while flushes_ is still `flushes`; kStored for a contact
    // the batch did not take.
    std::size_t pending = 0;
    std::size_t flushes = kStored;
  };
  static constexpr std::size_t kStored = static_cast<std::size_t>(-1);

  // The stored contacts that the batch's contact lines and visitors name by e-mail, into
  // contacts_by_email_: a contact line of such an address is a duplicate, a visitor of one is
  // that contact. One round trip per thousand addresses instead of one per line or visitor; none
  // beyond the first for a bulk load into a workspace without contacts.
  void match_stored_contacts(const std::vector<ImportItem>& items) {
    if (!conn_.query("SELECT 1 FROM contacts WHERE workspace_id = ? LIMIT 1", sql::Params().id(ws_))
             .next()) {
      return;
    }
    std::vector<std::string> emails;
    const auto add = [&](const domain::NewContact& c) {
      if (c.email) emails.push_back(domain::case_fold(*c.email));
    };
    for (const ImportItem& item : items) {
      if (const auto* contact = std::get_if<domain::NewContact>(&item.record)) add(*contact);
      if (const auto* conversation = std::get_if<domain::NewConversation>(&item.record)) {
        if (conversation->visitor) add(*conversation->visitor);
      }
    }
    std::sort(emails.begin(), emails.end());
    emails.erase(std::unique(emails.begin(), emails.end()), emails.end());
    for (auto& [folded, people] : find_contacts_people_by_emails(conn_, ws_, emails)) {
      contacts_by_email_.emplace(folded, KnownContact{std::move(people), 0, kStored});
    }
  }

  // Writes what was collected: the records, parents first, then their events in the order they
  // were added.
  void flush() {
    std::vector<sql::Params> contact_rows;
    contact_rows.reserve(contacts_.size());
    for (const PendingContact& c : contacts_) {
      contact_rows.push_back(new_contact_values(ws_, c.record, c.metadata_json));
    }
    conn_.insert_rows("contacts", new_contact_columns(), contact_rows);
    insert_lead_rows(conn_, ws_, leads_);
    conn_.insert_rows("conversations", kConversationColumns, conversations_);
    conn_.insert_rows("messages", kMessageColumns, messages_);
    events_.flush(conn_);
    add_contacts_conversations(conn_, ws_, written_gains_);
    written_gains_.clear();
    contacts_.clear();
    leads_.clear();
    conversations_.clear();
    messages_.clear();
    ++flushes_;
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
    domain::Contact out = new_contact_record(contact, now_);
    if (out.email) {
      // Checked here, so the bulk insert never meets the unique index: against this batch's
      // contacts (visitors' included) and the stored ones it names (match_stored_contacts).
      const std::string folded = domain::case_fold(*out.email);
      if (contacts_by_email_.contains(folded)) return kDuplicateEmail;
      contacts_by_email_.emplace(folded, KnownContact{people_of(out), contacts_.size(), flushes_});
    }
    events_.add("contact.created", record_json::contact_data(out), now_);
    contacts_.push_back({std::move(out), contact.metadata_json});
    ++counts_.contacts;
    return std::nullopt;
  }

  std::optional<std::string> store(const domain::NewConversation& conversation) {
    const AgentPeople* agent = nullptr;
    if (conversation.agent_id) {
      agent = agent_people(*conversation.agent_id);
      if (!agent) return "agent_id does not name an agent of this workspace";
    }
    if (conversation.department_id && !department_known(*conversation.department_id)) {
      return "department_id does not name a department of this workspace";
    }
    domain::Conversation out = new_conversation_record(conversation, now_);
    if (agent) {
      out.agent_name = agent->first_name;
      out.agent_last_name = agent->last_name;
      out.agent_email = agent->email;
    }
    std::optional<domain::ContactId> contact_id;
    if (conversation.visitor) {
      const KnownContact contact = contact_for_visitor(*conversation.visitor, out.created_at);
      contact_id = contact.people.id;
      out.visitor_name = contact.people.first_name;
      out.visitor_last_name = contact.people.last_name;
      out.visitor_email = contact.people.email;
      out.visitor_phone = contact.people.phone;
      out.visitor_company = contact.people.company_name;
      std::optional<domain::Timestamp> activity;
      if (!conversation.messages.empty()) activity = out.updated_at;
      gain_conversation(contact, out.created_at, activity);
    }
    const auto message_ids = ordered_message_ids(conversation.messages.size(), now_);
    std::vector<domain::Message> messages;
    messages.reserve(message_ids.size());
    // As lists show it: the newest message by (created_at, id), which ids ascend with.
    const domain::NewMessage* last = nullptr;
    for (std::size_t i = 0; i < message_ids.size(); ++i) {
      const domain::NewMessage& m = conversation.messages[i];
      messages.push_back({domain::MessageId{message_ids[i]}, m.sender_type, m.content,
                          m.attachments_json, m.status, m.created_at, m.sender_name});
      if (!last || m.created_at.unix_ms >= last->created_at.unix_ms) last = &m;
    }
    if (last) out.last_message = last->content;
    out.message_count = static_cast<std::int64_t>(messages.size());

    conversations_.push_back(conversation_values(ws_, out, contact_id));
    events_.add("conversation.created", record_json::conversation_data(out), now_);
    for (const domain::Message& m : messages) {
      messages_.push_back(message_values(ws_, out.id, m));
      events_.add("message.created", record_json::message_data(out.id, m), now_);
    }
    ++counts_.conversations;
    counts_.messages += static_cast<std::int64_t>(messages.size());
    return std::nullopt;
  }

  // A visitor with an e-mail is the workspace's contact of that address, created when there is
  // none; a visitor without one is always a new contact, dated like its conversation.
  KnownContact contact_for_visitor(const domain::NewContact& visitor,
                                   domain::Timestamp created_at) {
    std::optional<std::string> folded;
    if (visitor.email) {
      folded = domain::case_fold(*visitor.email);
      if (auto known = contacts_by_email_.find(*folded); known != contacts_by_email_.end()) {
        return known->second;
      }
    }
    domain::NewContact fresh = visitor;
    fresh.created_at = created_at;
    domain::Contact record = new_contact_record(fresh, now_);
    events_.add("contact.created", record_json::contact_data(record), now_);
    ++counts_.contacts;
    KnownContact known{people_of(record), contacts_.size(), flushes_};
    contacts_.push_back({std::move(record), visitor.metadata_json});
    if (folded) contacts_by_email_.emplace(*folded, known);
    return known;
  }

  // Counts a conversation of the contact, dated `created_at`, and moves its last_activity
  // forward to `activity`: in its row while that waits to be written, else in the stored row,
  // with the next flush.
  void gain_conversation(const KnownContact& contact, domain::Timestamp created_at,
                         std::optional<domain::Timestamp> activity) {
    const auto later = [](std::optional<domain::Timestamp>& at, domain::Timestamp t) {
      if (!at || t.unix_ms > at->unix_ms) at = t;
    };
    if (contact.flushes == flushes_) {
      domain::Contact& row = contacts_[contact.pending].record;
      ++row.conversation_count;
      later(row.last_conversation_at, created_at);
      if (activity && activity->unix_ms > row.last_activity.unix_ms) row.last_activity = *activity;
      return;
    }
    ContactConversationGain& gain = written_gains_[contact.people.id];
    ++gain.conversations;
    later(gain.latest_conversation, created_at);
    if (activity) later(gain.activity, *activity);
  }

  const AgentPeople* agent_people(const domain::AgentId& id) {
    auto found = agents_.find(id.value);
    if (found == agents_.end()) {
      found = agents_.emplace(id.value, find_agent_people(conn_, ws_, id)).first;
    }
    return found->second ? &*found->second : nullptr;
  }

  bool department_known(const domain::DepartmentId& id) {
    auto found = departments_.find(id.value);
    if (found == departments_.end()) {
      found = departments_.emplace(id.value, department_in_workspace(conn_, ws_, id)).first;
    }
    return found->second;
  }

  Connection& conn_;
  const domain::WorkspaceId& ws_;
  domain::Timestamp now_;
  ImportCounts counts_;
  std::vector<sql::Params> leads_;
  std::vector<PendingContact> contacts_;
  std::vector<sql::Params> conversations_;
  std::vector<sql::Params> messages_;
  // What this part of the batch gives each contact already written (stored before the batch or
  // by an earlier part of it), added at the next flush.
  std::map<domain::ContactId, ContactConversationGain> written_gains_;
  EventRows events_;
  std::size_t flushes_ = 0;
  // By folded e-mail: the contacts taken so far (lines and visitors), and the stored ones the
  // batch names.
  std::unordered_map<std::string, KnownContact> contacts_by_email_;
  // What was read of the workspace's agents and departments (nothing: not the workspace's).
  std::unordered_map<std::string, std::optional<AgentPeople>> agents_;
  std::unordered_map<std::string, bool> departments_;
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
