// The one storage interface. The HTTP, API and auth layers see only this; every SQL statement
// lives behind it (sqlite/, postgres/). Every record operation is scoped by workspace.
//
// Thread safety: every method may be called from any thread concurrently. Outcomes a caller
// must handle (not found, conflict, bad reference) are results, never exceptions; exceptions
// mean the database itself failed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "domain/ids.hpp"
#include "domain/records.hpp"
#include "store/list_query.hpp"

namespace leadline::store {

using domain::WorkspaceId;

// The database cannot be reached or dropped the connection ("database unavailable: <why>").
// The call had no effect unless the connection dropped while its commit was under way; a
// later call connects again.
class StoreUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct NotFound {};
// A referenced record (rep, agent, department) does not exist in the workspace.
struct InvalidReference {
  std::string field;  // "assigned_rep_id", "agent_id", "department_id"
};
// Contact e-mail already used in the workspace (case-insensitive).
struct EmailConflict {
  domain::ContactId existing_id;
};

template <class T>
using CreateResult = std::variant<T, EmailConflict>;
template <class T>
using UpdateResult = std::variant<T, NotFound, InvalidReference, EmailConflict>;

enum class Scope : unsigned { kRead = 1, kWrite = 2 };

struct ApiKeyRecord {
  domain::ApiKeyId id;
  WorkspaceId workspace_id;
  std::string name;
  std::string prefix;                    // "fc_live_" + 4 characters, for display
  unsigned scopes = 0;                   // bit set of Scope
  std::vector<std::string> allowed_ips;  // entries as given by the operator
  domain::Timestamp created_at;
  std::optional<domain::Timestamp> revoked_at;
};

struct NewApiKey {
  WorkspaceId workspace_id;
  std::string name;
  std::string prefix;
  std::string key_hash;  // lowercase hex SHA-256 of the whole key
  unsigned scopes = 0;
  std::vector<std::string> allowed_ips;
};

// Usage counted in memory and flushed in batches: one row per key, UTC day and endpoint.
struct UsageDelta {
  domain::ApiKeyId key_id;
  std::int64_t day;      // days since the Unix epoch, UTC
  std::string endpoint;  // "GET /leads"
  std::int64_t requests = 0;
  std::int64_t errors = 0;        // responses >= 400, 429s included
  std::int64_t rate_limited = 0;  // 429s
};

struct UsageReport {
  std::int64_t today = 0;
  std::int64_t this_week = 0;
  std::int64_t this_month = 0;
  std::map<std::string, std::int64_t> by_endpoint;  // this month
  double error_rate = 0;                            // this month
  std::int64_t rate_limited = 0;                    // this month
};

// One line of an import file, already validated field by field.
struct ImportItem {
  int line = 0;
  std::variant<domain::NewLead, domain::NewContact, domain::NewConversation> record;
};

// Why an import was rolled back: the first line that could not be stored (duplicate contact
// e-mail, unknown agent or department, ...).
struct ImportFailure {
  int line = 0;
  std::string message;
};

struct ImportCounts {
  std::int64_t conversations = 0;
  std::int64_t contacts = 0;
  std::int64_t leads = 0;
  std::int64_t messages = 0;
};

// A connection pool's connections at one moment, for the metrics.
struct PoolCounts {
  std::size_t idle = 0;
  std::size_t in_use = 0;
};

class Store {
 public:
  virtual ~Store() = default;

  // The pool's connections now; nothing for a backend that does not count them (SQLite).
  virtual std::optional<PoolCounts> pool_counts() { return std::nullopt; }

  // Whether the database answers a trivial query now, within a few seconds at most (for
  // readiness probes). Never throws.
  virtual bool ping() = 0;

  // Secret for cursor HMACs; created with the database so every instance shares it.
  virtual std::string cursor_secret() = 0;

  // True when every call waits on a network round trip (a database server): the server then
  // runs more worker threads than cores.
  virtual bool remote() const { return false; }

  // Workspaces and the people records the operator manages.
  virtual domain::Workspace create_workspace(const std::string& name) = 0;
  virtual bool workspace_exists(const WorkspaceId& ws) = 0;
  virtual std::vector<domain::Workspace> list_workspaces() = 0;
  virtual domain::Person add_rep(const WorkspaceId& ws, const domain::Person& rep) = 0;
  virtual domain::Person add_agent(const WorkspaceId& ws, const domain::Person& agent) = 0;
  virtual domain::Department add_department(const WorkspaceId& ws, const std::string& name) = 0;

  // API keys. find_key_by_hash returns revoked keys too (revoked_at set).
  virtual ApiKeyRecord create_api_key(const NewApiKey& key) = 0;
  virtual std::optional<ApiKeyRecord> find_key_by_hash(const std::string& key_hash) = 0;
  virtual std::vector<ApiKeyRecord> list_api_keys(const WorkspaceId& ws) = 0;
  // Sets revoked_at once; a second revoke keeps the first time. NotFound for unknown ids.
  virtual std::variant<ApiKeyRecord, NotFound> revoke_api_key(const domain::ApiKeyId& id) = 0;

  virtual void record_usage(const std::vector<UsageDelta>& deltas) = 0;
  virtual std::variant<UsageReport, NotFound> key_usage(const domain::ApiKeyId& id,
                                                        domain::Timestamp now) = 0;

  // Leads.
  virtual domain::Lead create_lead(const WorkspaceId& ws, const domain::NewLead& lead) = 0;
  virtual std::optional<domain::Lead> get_lead(const WorkspaceId& ws, const domain::LeadId& id) = 0;
  virtual UpdateResult<domain::Lead> update_lead(const WorkspaceId& ws, const domain::LeadId& id,
                                                 const domain::LeadPatch& patch) = 0;
  virtual bool delete_lead(const WorkspaceId& ws, const domain::LeadId& id) = 0;
  virtual Page<domain::Lead> list_leads(const WorkspaceId& ws, const LeadListQuery& q) = 0;

  // Contacts.
  virtual CreateResult<domain::Contact> create_contact(const WorkspaceId& ws,
                                                       const domain::NewContact& contact) = 0;
  virtual std::optional<domain::Contact> get_contact(const WorkspaceId& ws,
                                                     const domain::ContactId& id) = 0;
  virtual UpdateResult<domain::Contact> update_contact(const WorkspaceId& ws,
                                                       const domain::ContactId& id,
                                                       const domain::ContactPatch& patch) = 0;
  virtual bool delete_contact(const WorkspaceId& ws, const domain::ContactId& id) = 0;
  virtual Page<domain::Contact> list_contacts(const WorkspaceId& ws, const ContactListQuery& q) = 0;

  // Conversations.
  virtual std::optional<domain::ConversationWithMessages> get_conversation(
      const WorkspaceId& ws, const domain::ConversationId& id) = 0;
  virtual UpdateResult<domain::ConversationPatchResult> update_conversation(
      const WorkspaceId& ws, const domain::ConversationId& id,
      const domain::ConversationPatch& patch) = 0;
  virtual Page<domain::Conversation> list_conversations(const WorkspaceId& ws,
                                                        const ConversationListQuery& q) = 0;

  // All-or-nothing intake of leads, contacts and conversations with messages.
  // Items are applied in order, so a conversation can link to a contact created earlier in
  // the same file.
  virtual std::variant<ImportCounts, ImportFailure> import_batch(
      const WorkspaceId& ws, const std::vector<ImportItem>& items) = 0;
};

// Opens the store named by a --db URL ("sqlite:PATH", or "postgres://..." / "postgresql://..."
// as libpq reads it), applying migrations. Throws std::runtime_error (StoreUnavailable when
// the database cannot be reached) with a readable message when it cannot.
std::unique_ptr<Store> open_store(const std::string& db_url);

}  // namespace leadline::store
