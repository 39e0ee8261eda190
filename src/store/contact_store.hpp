// Contacts: e-mail unique per workspace (case-insensitive), computed conversation figures,
// PATCH and keyset-paged lists.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "domain/records.hpp"
#include "store/list_query.hpp"
#include "store/operation_runner.hpp"
#include "store/outcomes.hpp"
#include "store/records/event_outbox.hpp"
#include "store/sql/list_statements.hpp"

namespace leadline::store {

class ContactStore {
 public:
  explicit ContactStore(OperationRunner& runner) : runner_(runner) {}

  // EmailConflict names the contact that holds the address; of N simultaneous creates with one
  // address, the database's unique index lets exactly one win.
  CreateResult<domain::Contact> create(const domain::WorkspaceId& ws,
                                       const domain::NewContact& contact);
  std::optional<domain::Contact> get(const domain::WorkspaceId& ws, const domain::ContactId& id);
  UpdateResult<domain::Contact> update(const domain::WorkspaceId& ws, const domain::ContactId& id,
                                       const domain::ContactPatch& patch);
  bool remove(const domain::WorkspaceId& ws, const domain::ContactId& id);
  Page<domain::Contact> list(const domain::WorkspaceId& ws, const ContactListQuery& query);
  // The same page, each contact given to `visit` as it is read (ItemVisitor), without the items.
  PageFacts list(const domain::WorkspaceId& ws, const ContactListQuery& query,
                 const ItemVisitor<domain::Contact>& visit);

 private:
  OperationRunner& runner_;
};

// A new contact's row (new_records.hpp) as insert_contact writes it: the columns and their
// values, for an import's bulk insert.
const std::string& new_contact_columns();
sql::Params new_contact_values(const domain::WorkspaceId& ws, const domain::Contact& contact,
                               const std::optional<std::string>& metadata_json);

// A new contact with its id drawn, its row's values and its event rendered, before the write
// transaction that inserts it.
struct PreparedContact {
  domain::Contact contact;
  sql::Params values;  // new_contact_values
  PreparedEvent event;
};
PreparedContact prepare_contact(const domain::WorkspaceId& ws, const domain::NewContact& contact,
                                domain::Timestamp now);
CreateResult<domain::Contact> insert_contact(sql::Connection& conn, const domain::WorkspaceId& ws,
                                             const PreparedContact& prepared);

// Statements an import runs inside its own transaction.
CreateResult<domain::Contact> insert_contact(sql::Connection& conn, const domain::WorkspaceId& ws,
                                             const domain::NewContact& contact,
                                             domain::Timestamp now);
std::optional<domain::ContactId> find_contact_by_email(sql::Connection& conn,
                                                       const domain::WorkspaceId& ws,
                                                       const std::string& email);
// What a conversation shows of its visitor's contact.
struct ContactPeople {
  domain::ContactId id;
  std::string first_name;
  std::optional<std::string> last_name, email, phone, company_name;
};
ContactPeople people_of(const domain::Contact& contact);
// The stored contacts whose folded e-mail is among `folded_emails`, by folded e-mail: an
// import's contact lines and visitors matched a thousand per statement instead of one each.
std::unordered_map<std::string, ContactPeople> find_contacts_people_by_emails(
    sql::Connection& conn, const domain::WorkspaceId& ws,
    const std::vector<std::string>& folded_emails);
// What a batch of imported conversations adds to a stored contact: their number, the latest
// one's created_at, and the latest activity their messages give it (none without messages).
struct ContactConversationGain {
  std::int64_t conversations = 0;
  std::optional<domain::Timestamp> latest_conversation;  // set with the first conversation
  std::optional<domain::Timestamp> activity;
};
// The statement add_contacts_conversations runs, for query plan checks.
std::string contacts_conversation_gain_sql(const sql::Dialect& dialect);
// Adds each gain to its contact: the count up, the latest conversation and last_activity moved
// forward (never back); a thousand contacts per statement.
void add_contacts_conversations(sql::Connection& conn, const domain::WorkspaceId& ws,
                                const std::map<domain::ContactId, ContactConversationGain>& gains);

// The statements list() runs, for query plan checks; with `total_count`, the page it runs after
// counting that many matches.
sql::ListStatements contact_list_statements(const sql::Dialect& dialect,
                                            const domain::WorkspaceId& ws,
                                            const ContactListQuery& query,
                                            std::optional<std::int64_t> total_count = std::nullopt);

}  // namespace leadline::store
