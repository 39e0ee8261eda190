// A Store that times every call into a histogram per operation (the database time of each
// request, as leadline_db_query_duration_seconds) and forwards it to the real store.
#pragma once

#include <array>
#include <string>

#include "observability/histogram.hpp"
#include "store/store.hpp"

namespace leadline::store {

class InstrumentedStore final : public Store {
 public:
  explicit InstrumentedStore(Store& inner) : inner_(inner) {}

  // leadline_db_query_duration_seconds{operation="…"} for every operation called at least once.
  void render_metrics(std::string& out) const;

  // Not timed: a readiness probe is not database time spent on requests.
  bool ping() override { return inner_.ping(); }
  std::optional<PoolCounts> pool_counts() override { return inner_.pool_counts(); }

  std::string cursor_secret() override;
  bool remote() const override { return inner_.remote(); }
  domain::Workspace create_workspace(const std::string& name) override;
  bool workspace_exists(const WorkspaceId& ws) override;
  std::vector<domain::Workspace> list_workspaces() override;
  domain::Person add_rep(const WorkspaceId& ws, const domain::Person& rep) override;
  domain::Person add_agent(const WorkspaceId& ws, const domain::Person& agent) override;
  domain::Department add_department(const WorkspaceId& ws, const std::string& name) override;
  ApiKeyRecord create_api_key(const NewApiKey& key) override;
  std::optional<ApiKeyRecord> find_key_by_hash(const std::string& key_hash) override;
  std::vector<ApiKeyRecord> list_api_keys(const WorkspaceId& ws) override;
  std::variant<ApiKeyRecord, NotFound> revoke_api_key(const domain::ApiKeyId& id) override;
  void record_usage(const std::vector<UsageDelta>& deltas) override;
  std::variant<UsageReport, NotFound> key_usage(const domain::ApiKeyId& id,
                                                domain::Timestamp now) override;
  domain::Lead create_lead(const WorkspaceId& ws, const domain::NewLead& lead) override;
  std::optional<domain::Lead> get_lead(const WorkspaceId& ws, const domain::LeadId& id) override;
  UpdateResult<domain::Lead> update_lead(const WorkspaceId& ws, const domain::LeadId& id,
                                         const domain::LeadPatch& patch) override;
  bool delete_lead(const WorkspaceId& ws, const domain::LeadId& id) override;
  Page<domain::Lead> list_leads(const WorkspaceId& ws, const LeadListQuery& q) override;
  CreateResult<domain::Contact> create_contact(const WorkspaceId& ws,
                                               const domain::NewContact& contact) override;
  std::optional<domain::Contact> get_contact(const WorkspaceId& ws,
                                             const domain::ContactId& id) override;
  UpdateResult<domain::Contact> update_contact(const WorkspaceId& ws, const domain::ContactId& id,
                                               const domain::ContactPatch& patch) override;
  bool delete_contact(const WorkspaceId& ws, const domain::ContactId& id) override;
  Page<domain::Contact> list_contacts(const WorkspaceId& ws, const ContactListQuery& q) override;
  std::optional<domain::ConversationWithMessages> get_conversation(
      const WorkspaceId& ws, const domain::ConversationId& id) override;
  UpdateResult<domain::ConversationPatchResult> update_conversation(
      const WorkspaceId& ws, const domain::ConversationId& id,
      const domain::ConversationPatch& patch) override;
  Page<domain::Conversation> list_conversations(const WorkspaceId& ws,
                                                const ConversationListQuery& q) override;
  std::variant<ImportCounts, ImportFailure> import_batch(
      const WorkspaceId& ws, const std::vector<ImportItem>& items) override;

  static constexpr std::size_t kOperations = 27;

 private:
  enum Operation : std::size_t {
    kCursorSecret,
    kCreateWorkspace,
    kWorkspaceExists,
    kListWorkspaces,
    kAddRep,
    kAddAgent,
    kAddDepartment,
    kCreateApiKey,
    kFindKeyByHash,
    kListApiKeys,
    kRevokeApiKey,
    kRecordUsage,
    kKeyUsage,
    kCreateLead,
    kGetLead,
    kUpdateLead,
    kDeleteLead,
    kListLeads,
    kCreateContact,
    kGetContact,
    kUpdateContact,
    kDeleteContact,
    kListContacts,
    kGetConversation,
    kUpdateConversation,
    kListConversations,
    kImportBatch,
  };

  Store& inner_;
  std::array<observability::Histogram, kOperations> durations_;
};

}  // namespace leadline::store
