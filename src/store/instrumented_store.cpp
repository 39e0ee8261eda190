// One forwarding method per Store operation, each timed, exceptions included.
#include "store/instrumented_store.hpp"

#include <chrono>
#include <string_view>

#include "observability/prometheus_text.hpp"

namespace leadline::store {

namespace {

// In the order of InstrumentedStore::Operation.
constexpr std::array<std::string_view, InstrumentedStore::kOperations> kOperationNames = {
    "cursor_secret",
    "create_workspace",
    "workspace_exists",
    "list_workspaces",
    "add_rep",
    "add_agent",
    "add_department",
    "create_api_key",
    "find_key_by_hash",
    "list_api_keys",
    "revoke_api_key",
    "record_usage",
    "key_usage",
    "create_lead",
    "get_lead",
    "update_lead",
    "delete_lead",
    "list_leads",
    "create_contact",
    "get_contact",
    "update_contact",
    "delete_contact",
    "list_contacts",
    "get_conversation",
    "update_conversation",
    "list_conversations",
    "import_batch",
};

// Observes on destruction, so a call that throws is timed too.
class Timer {
 public:
  explicit Timer(observability::Histogram& histogram)
      : histogram_(histogram), start_(std::chrono::steady_clock::now()) {}
  ~Timer() {
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start_;
    histogram_.observe(elapsed.count());
  }
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;

 private:
  observability::Histogram& histogram_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

void InstrumentedStore::render_metrics(std::string& out) const {
  observability::write_family(out, "leadline_db_query_duration_seconds",
                              "Time spent in database calls, by store operation.", "histogram");
  for (std::size_t i = 0; i < kOperations; ++i) {
    const auto snapshot = durations_[i].snapshot();
    if (snapshot.count() == 0) continue;
    observability::write_histogram(out, "leadline_db_query_duration_seconds",
                                   {{"operation", kOperationNames[i]}}, snapshot);
  }
}

std::string InstrumentedStore::cursor_secret() {
  Timer timer(durations_[kCursorSecret]);
  return inner_.cursor_secret();
}

domain::Workspace InstrumentedStore::create_workspace(const std::string& name) {
  Timer timer(durations_[kCreateWorkspace]);
  return inner_.create_workspace(name);
}

bool InstrumentedStore::workspace_exists(const WorkspaceId& ws) {
  Timer timer(durations_[kWorkspaceExists]);
  return inner_.workspace_exists(ws);
}

std::vector<domain::Workspace> InstrumentedStore::list_workspaces() {
  Timer timer(durations_[kListWorkspaces]);
  return inner_.list_workspaces();
}

domain::Person InstrumentedStore::add_rep(const WorkspaceId& ws, const domain::Person& rep) {
  Timer timer(durations_[kAddRep]);
  return inner_.add_rep(ws, rep);
}

domain::Person InstrumentedStore::add_agent(const WorkspaceId& ws, const domain::Person& agent) {
  Timer timer(durations_[kAddAgent]);
  return inner_.add_agent(ws, agent);
}

domain::Department InstrumentedStore::add_department(const WorkspaceId& ws,
                                                     const std::string& name) {
  Timer timer(durations_[kAddDepartment]);
  return inner_.add_department(ws, name);
}

ApiKeyRecord InstrumentedStore::create_api_key(const NewApiKey& key) {
  Timer timer(durations_[kCreateApiKey]);
  return inner_.create_api_key(key);
}

std::optional<ApiKeyRecord> InstrumentedStore::find_key_by_hash(const std::string& key_hash) {
  Timer timer(durations_[kFindKeyByHash]);
  return inner_.find_key_by_hash(key_hash);
}

std::vector<ApiKeyRecord> InstrumentedStore::list_api_keys(const WorkspaceId& ws) {
  Timer timer(durations_[kListApiKeys]);
  return inner_.list_api_keys(ws);
}

std::variant<ApiKeyRecord, NotFound> InstrumentedStore::revoke_api_key(const domain::ApiKeyId& id) {
  Timer timer(durations_[kRevokeApiKey]);
  return inner_.revoke_api_key(id);
}

void InstrumentedStore::record_usage(const std::vector<UsageDelta>& deltas) {
  Timer timer(durations_[kRecordUsage]);
  return inner_.record_usage(deltas);
}

std::variant<UsageReport, NotFound> InstrumentedStore::key_usage(const domain::ApiKeyId& id,
                                                                 domain::Timestamp now) {
  Timer timer(durations_[kKeyUsage]);
  return inner_.key_usage(id, now);
}

domain::Lead InstrumentedStore::create_lead(const WorkspaceId& ws, const domain::NewLead& lead) {
  Timer timer(durations_[kCreateLead]);
  return inner_.create_lead(ws, lead);
}

std::optional<domain::Lead> InstrumentedStore::get_lead(const WorkspaceId& ws,
                                                        const domain::LeadId& id) {
  Timer timer(durations_[kGetLead]);
  return inner_.get_lead(ws, id);
}

UpdateResult<domain::Lead> InstrumentedStore::update_lead(const WorkspaceId& ws,
                                                          const domain::LeadId& id,
                                                          const domain::LeadPatch& patch) {
  Timer timer(durations_[kUpdateLead]);
  return inner_.update_lead(ws, id, patch);
}

bool InstrumentedStore::delete_lead(const WorkspaceId& ws, const domain::LeadId& id) {
  Timer timer(durations_[kDeleteLead]);
  return inner_.delete_lead(ws, id);
}

Page<domain::Lead> InstrumentedStore::list_leads(const WorkspaceId& ws, const LeadListQuery& q) {
  Timer timer(durations_[kListLeads]);
  return inner_.list_leads(ws, q);
}

CreateResult<domain::Contact> InstrumentedStore::create_contact(const WorkspaceId& ws,
                                                                const domain::NewContact& contact) {
  Timer timer(durations_[kCreateContact]);
  return inner_.create_contact(ws, contact);
}

std::optional<domain::Contact> InstrumentedStore::get_contact(const WorkspaceId& ws,
                                                              const domain::ContactId& id) {
  Timer timer(durations_[kGetContact]);
  return inner_.get_contact(ws, id);
}

UpdateResult<domain::Contact> InstrumentedStore::update_contact(const WorkspaceId& ws,
                                                                const domain::ContactId& id,
                                                                const domain::ContactPatch& patch) {
  Timer timer(durations_[kUpdateContact]);
  return inner_.update_contact(ws, id, patch);
}

bool InstrumentedStore::delete_contact(const WorkspaceId& ws, const domain::ContactId& id) {
  Timer timer(durations_[kDeleteContact]);
  return inner_.delete_contact(ws, id);
}

Page<domain::Contact> InstrumentedStore::list_contacts(const WorkspaceId& ws,
                                                       const ContactListQuery& q) {
  Timer timer(durations_[kListContacts]);
  return inner_.list_contacts(ws, q);
}

std::optional<domain::ConversationWithMessages> InstrumentedStore::get_conversation(
    const WorkspaceId& ws, const domain::ConversationId& id) {
  Timer timer(durations_[kGetConversation]);
  return inner_.get_conversation(ws, id);
}

UpdateResult<domain::ConversationPatchResult> InstrumentedStore::update_conversation(
    const WorkspaceId& ws, const domain::ConversationId& id,
    const domain::ConversationPatch& patch) {
  Timer timer(durations_[kUpdateConversation]);
  return inner_.update_conversation(ws, id, patch);
}

Page<domain::Conversation> InstrumentedStore::list_conversations(const WorkspaceId& ws,
                                                                 const ConversationListQuery& q) {
  Timer timer(durations_[kListConversations]);
  return inner_.list_conversations(ws, q);
}

std::variant<ImportCounts, ImportFailure> InstrumentedStore::import_batch(
    const WorkspaceId& ws, const std::vector<ImportItem>& items) {
  Timer timer(durations_[kImportBatch]);
  return inner_.import_batch(ws, items);
}

}  // namespace leadline::store
