// SqliteStore: connection discipline and transactions; the SQL lives in the *_queries files.
#include "store/sqlite/sqlite_store.hpp"

#include <algorithm>
#include <thread>

#include "store/sqlite/contact_queries.hpp"
#include "store/sqlite/conversation_queries.hpp"
#include "store/sqlite/cursor_secret.hpp"
#include "store/sqlite/import_queries.hpp"
#include "store/sqlite/key_queries.hpp"
#include "store/sqlite/lead_queries.hpp"
#include "store/sqlite/migration_runner.hpp"
#include "store/sqlite/sqlite_migrations.hpp"
#include "store/sqlite/usage_queries.hpp"
#include "store/sqlite/workspace_queries.hpp"

namespace leadline::store::sqlite {

namespace {

// Enough idle read connections for every server thread; more open under bursts.
std::size_t idle_readers() {
  return std::max<std::size_t>(4, 2 * std::thread::hardware_concurrency());
}

}  // namespace

SqliteStore::SqliteStore(const std::string& path)
    : writer_(std::make_unique<Connection>(path)), readers_(path, idle_readers()) {
  apply_migrations(*writer_, migrations());
  cursor_secret_ = load_or_create_cursor_secret(*writer_);
}

std::string SqliteStore::cursor_secret() {
  return cursor_secret_;
}

domain::Workspace SqliteStore::create_workspace(const std::string& name) {
  return write([&](Connection& c) { return insert_workspace(c, name, domain::now()); });
}

bool SqliteStore::workspace_exists(const WorkspaceId& ws) {
  return read([&](Connection& c) { return sqlite::workspace_exists(c, ws); });
}

std::vector<domain::Workspace> SqliteStore::list_workspaces() {
  return read([&](Connection& c) { return select_workspaces(c); });
}

domain::Person SqliteStore::add_rep(const WorkspaceId& ws, const domain::Person& rep) {
  return write(
      [&](Connection& c) { return insert_person(c, PersonTable::kReps, ws, rep, domain::now()); });
}

domain::Person SqliteStore::add_agent(const WorkspaceId& ws, const domain::Person& agent) {
  return write([&](Connection& c) {
    return insert_person(c, PersonTable::kAgents, ws, agent, domain::now());
  });
}

domain::Department SqliteStore::add_department(const WorkspaceId& ws, const std::string& name) {
  return write([&](Connection& c) { return insert_department(c, ws, name, domain::now()); });
}

ApiKeyRecord SqliteStore::create_api_key(const NewApiKey& key) {
  return write([&](Connection& c) { return insert_api_key(c, key, domain::now()); });
}

std::optional<ApiKeyRecord> SqliteStore::find_key_by_hash(const std::string& key_hash) {
  return read([&](Connection& c) { return select_key_by_hash(c, key_hash); });
}

std::vector<ApiKeyRecord> SqliteStore::list_api_keys(const WorkspaceId& ws) {
  return read([&](Connection& c) { return select_keys_of_workspace(c, ws); });
}

std::variant<ApiKeyRecord, NotFound> SqliteStore::revoke_api_key(const domain::ApiKeyId& id) {
  return write([&](Connection& c) { return revoke_key(c, id, domain::now()); });
}

void SqliteStore::record_usage(const std::vector<UsageDelta>& deltas) {
  if (deltas.empty()) return;
  write([&](Connection& c) { add_usage(c, deltas); });
}

std::variant<UsageReport, NotFound> SqliteStore::key_usage(const domain::ApiKeyId& id,
                                                           domain::Timestamp now) {
  return read_snapshot([&](Connection& c) { return select_usage(c, id, now); });
}

domain::Lead SqliteStore::create_lead(const WorkspaceId& ws, const domain::NewLead& lead) {
  return write([&](Connection& c) { return insert_lead(c, ws, lead, domain::now()); });
}

std::optional<domain::Lead> SqliteStore::get_lead(const WorkspaceId& ws, const domain::LeadId& id) {
  return read([&](Connection& c) { return select_lead(c, ws, id); });
}

UpdateResult<domain::Lead> SqliteStore::update_lead(const WorkspaceId& ws, const domain::LeadId& id,
                                                    const domain::LeadPatch& patch) {
  return write([&](Connection& c) { return sqlite::update_lead(c, ws, id, patch, domain::now()); });
}

bool SqliteStore::delete_lead(const WorkspaceId& ws, const domain::LeadId& id) {
  return write([&](Connection& c) { return sqlite::delete_lead(c, ws, id); });
}

Page<domain::Lead> SqliteStore::list_leads(const WorkspaceId& ws, const LeadListQuery& q) {
  return read_snapshot([&](Connection& c) { return sqlite::list_leads(c, ws, q); });
}

CreateResult<domain::Contact> SqliteStore::create_contact(const WorkspaceId& ws,
                                                          const domain::NewContact& contact) {
  return write([&](Connection& c) { return insert_contact(c, ws, contact, domain::now()); });
}

std::optional<domain::Contact> SqliteStore::get_contact(const WorkspaceId& ws,
                                                        const domain::ContactId& id) {
  return read([&](Connection& c) { return select_contact(c, ws, id); });
}

UpdateResult<domain::Contact> SqliteStore::update_contact(const WorkspaceId& ws,
                                                          const domain::ContactId& id,
                                                          const domain::ContactPatch& patch) {
  return write(
      [&](Connection& c) { return sqlite::update_contact(c, ws, id, patch, domain::now()); });
}

bool SqliteStore::delete_contact(const WorkspaceId& ws, const domain::ContactId& id) {
  return write([&](Connection& c) { return sqlite::delete_contact(c, ws, id); });
}

Page<domain::Contact> SqliteStore::list_contacts(const WorkspaceId& ws, const ContactListQuery& q) {
  return read_snapshot([&](Connection& c) { return sqlite::list_contacts(c, ws, q); });
}

std::optional<domain::ConversationWithMessages> SqliteStore::get_conversation(
    const WorkspaceId& ws, const domain::ConversationId& id) {
  return read_snapshot([&](Connection& c) { return select_conversation(c, ws, id); });
}

UpdateResult<domain::ConversationPatchResult> SqliteStore::update_conversation(
    const WorkspaceId& ws, const domain::ConversationId& id,
    const domain::ConversationPatch& patch) {
  return write(
      [&](Connection& c) { return sqlite::update_conversation(c, ws, id, patch, domain::now()); });
}

Page<domain::Conversation> SqliteStore::list_conversations(const WorkspaceId& ws,
                                                           const ConversationListQuery& q) {
  return read_snapshot([&](Connection& c) { return sqlite::list_conversations(c, ws, q); });
}

std::variant<ImportCounts, ImportFailure> SqliteStore::import_batch(
    const WorkspaceId& ws, const std::vector<ImportItem>& items) {
  std::optional<std::variant<ImportCounts, ImportFailure>> result;
  // A failure keeps nothing: the batch's savepoint is rolled back.
  group_.run([&](Connection& c) {
    result.emplace(import_items(c, ws, items, domain::now()));
    return std::holds_alternative<ImportCounts>(*result);
  });
  return std::move(*result);
}

}  // namespace leadline::store::sqlite
