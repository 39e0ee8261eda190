// PostgresStore: connection discipline and transactions; the SQL lives in the *_queries files.
#include "store/postgres/postgres_store.hpp"

#include "store/postgres/contact_queries.hpp"
#include "store/postgres/conversation_queries.hpp"
#include "store/postgres/cursor_secret.hpp"
#include "store/postgres/import_queries.hpp"
#include "store/postgres/key_queries.hpp"
#include "store/postgres/lead_queries.hpp"
#include "store/postgres/migration_runner.hpp"
#include "store/postgres/postgres_migrations.hpp"
#include "store/postgres/usage_queries.hpp"
#include "store/postgres/workspace_queries.hpp"

namespace leadline::store::postgres {

PostgresStore::PostgresStore(const std::string& url, std::size_t pool_size)
    : pool_(url, pool_size, kAcquireTimeout) {
  auto lease = pool_.acquire();
  apply_migrations(lease.conn(), migrations());
  cursor_secret_ = load_or_create_cursor_secret(lease.conn());
}

std::string PostgresStore::cursor_secret() {
  return cursor_secret_;
}

domain::Workspace PostgresStore::create_workspace(const std::string& name) {
  return write([&](Connection& c) { return insert_workspace(c, name, domain::now()); });
}

bool PostgresStore::workspace_exists(const WorkspaceId& ws) {
  return read([&](Connection& c) { return postgres::workspace_exists(c, ws); });
}

std::vector<domain::Workspace> PostgresStore::list_workspaces() {
  return read([&](Connection& c) { return select_workspaces(c); });
}

domain::Person PostgresStore::add_rep(const WorkspaceId& ws, const domain::Person& rep) {
  return write(
      [&](Connection& c) { return insert_person(c, PersonTable::kReps, ws, rep, domain::now()); });
}

domain::Person PostgresStore::add_agent(const WorkspaceId& ws, const domain::Person& agent) {
  return write([&](Connection& c) {
    return insert_person(c, PersonTable::kAgents, ws, agent, domain::now());
  });
}

domain::Department PostgresStore::add_department(const WorkspaceId& ws, const std::string& name) {
  return write([&](Connection& c) { return insert_department(c, ws, name, domain::now()); });
}

ApiKeyRecord PostgresStore::create_api_key(const NewApiKey& key) {
  return write([&](Connection& c) { return insert_api_key(c, key, domain::now()); });
}

std::optional<ApiKeyRecord> PostgresStore::find_key_by_hash(const std::string& key_hash) {
  return read([&](Connection& c) { return select_key_by_hash(c, key_hash); });
}

std::vector<ApiKeyRecord> PostgresStore::list_api_keys(const WorkspaceId& ws) {
  return read([&](Connection& c) { return select_keys_of_workspace(c, ws); });
}

std::variant<ApiKeyRecord, NotFound> PostgresStore::revoke_api_key(const domain::ApiKeyId& id) {
  return write([&](Connection& c) { return revoke_key(c, id, domain::now()); });
}

void PostgresStore::record_usage(const std::vector<UsageDelta>& deltas) {
  if (deltas.empty()) return;
  write([&](Connection& c) { add_usage(c, deltas); });
}

std::variant<UsageReport, NotFound> PostgresStore::key_usage(const domain::ApiKeyId& id,
                                                             domain::Timestamp now) {
  return read_snapshot([&](Connection& c) { return select_usage(c, id, now); });
}

domain::Lead PostgresStore::create_lead(const WorkspaceId& ws, const domain::NewLead& lead) {
  return write([&](Connection& c) { return insert_lead(c, ws, lead, domain::now()); });
}

std::optional<domain::Lead> PostgresStore::get_lead(const WorkspaceId& ws,
                                                    const domain::LeadId& id) {
  return read([&](Connection& c) { return select_lead(c, ws, id); });
}

UpdateResult<domain::Lead> PostgresStore::update_lead(const WorkspaceId& ws,
                                                      const domain::LeadId& id,
                                                      const domain::LeadPatch& patch) {
  return write(
      [&](Connection& c) { return postgres::update_lead(c, ws, id, patch, domain::now()); });
}

bool PostgresStore::delete_lead(const WorkspaceId& ws, const domain::LeadId& id) {
  return write([&](Connection& c) { return postgres::delete_lead(c, ws, id); });
}

Page<domain::Lead> PostgresStore::list_leads(const WorkspaceId& ws, const LeadListQuery& q) {
  return read_snapshot([&](Connection& c) { return postgres::list_leads(c, ws, q); });
}

CreateResult<domain::Contact> PostgresStore::create_contact(const WorkspaceId& ws,
                                                            const domain::NewContact& contact) {
  return write([&](Connection& c) { return insert_contact(c, ws, contact, domain::now()); });
}

std::optional<domain::Contact> PostgresStore::get_contact(const WorkspaceId& ws,
                                                          const domain::ContactId& id) {
  return read([&](Connection& c) { return select_contact(c, ws, id); });
}

UpdateResult<domain::Contact> PostgresStore::update_contact(const WorkspaceId& ws,
                                                            const domain::ContactId& id,
                                                            const domain::ContactPatch& patch) {
  return write(
      [&](Connection& c) { return postgres::update_contact(c, ws, id, patch, domain::now()); });
}

bool PostgresStore::delete_contact(const WorkspaceId& ws, const domain::ContactId& id) {
  return write([&](Connection& c) { return postgres::delete_contact(c, ws, id); });
}

Page<domain::Contact> PostgresStore::list_contacts(const WorkspaceId& ws,
                                                   const ContactListQuery& q) {
  return read_snapshot([&](Connection& c) { return postgres::list_contacts(c, ws, q); });
}

std::optional<domain::ConversationWithMessages> PostgresStore::get_conversation(
    const WorkspaceId& ws, const domain::ConversationId& id) {
  return read_snapshot([&](Connection& c) { return select_conversation(c, ws, id); });
}

UpdateResult<domain::ConversationPatchResult> PostgresStore::update_conversation(
    const WorkspaceId& ws, const domain::ConversationId& id,
    const domain::ConversationPatch& patch) {
  return write([&](Connection& c) {
    return postgres::update_conversation(c, ws, id, patch, domain::now());
  });
}

Page<domain::Conversation> PostgresStore::list_conversations(const WorkspaceId& ws,
                                                             const ConversationListQuery& q) {
  return read_snapshot([&](Connection& c) { return postgres::list_conversations(c, ws, q); });
}

std::variant<ImportCounts, ImportFailure> PostgresStore::import_batch(
    const WorkspaceId& ws, const std::vector<ImportItem>& items) {
  // A failure is returned without commit: the transaction rolls everything back.
  return transaction(
      Transaction::Kind::kWrite,
      [&](Connection& c) { return import_items(c, ws, items, domain::now()); },
      [](const auto& result) { return std::holds_alternative<ImportCounts>(result); });
}

}  // namespace leadline::store::postgres
