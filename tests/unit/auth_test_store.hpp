// Test support for the auth unit tests: a real SQLite store in a fresh temporary directory,
// and a pass-through wrapper that can make record_usage fail on demand.
#pragma once

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>

#include "store/store.hpp"
#include "temp_dir.hpp"

namespace leadline::auth::testing {

using leadline::unit_test::TempDir;

// The real store on a new database file; the directory outlives the store.
struct TestStore {
  TempDir dir;
  std::unique_ptr<store::Store> store =
      store::open_store("sqlite:" + (dir.path() / "t.db").string());
};

// Forwards every call to the real store; record_usage throws while `fail_usage` is set, the way
// a database that went away would.
class UsageFailingStore final : public store::Store {
 public:
  explicit UsageFailingStore(store::Store& inner) : inner_(inner) {}

  std::atomic<bool> fail_usage{false};
  std::atomic<int> usage_calls{0};

  void record_usage(const std::vector<store::UsageDelta>& deltas) override {
    ++usage_calls;
    if (fail_usage) throw std::runtime_error("database is unavailable");
    inner_.record_usage(deltas);
  }

  bool ping() override { return inner_.ping(); }
  std::string cursor_secret() override { return inner_.cursor_secret(); }
  domain::Workspace create_workspace(const std::string& name) override {
    return inner_.create_workspace(name);
  }
  bool workspace_exists(const store::WorkspaceId& ws) override {
    return inner_.workspace_exists(ws);
  }
  std::vector<domain::Workspace> list_workspaces() override { return inner_.list_workspaces(); }
  domain::Person add_rep(const store::WorkspaceId& ws, const domain::Person& rep) override {
    return inner_.add_rep(ws, rep);
  }
  domain::Person add_agent(const store::WorkspaceId& ws, const domain::Person& agent) override {
    return inner_.add_agent(ws, agent);
  }
  domain::Department add_department(const store::WorkspaceId& ws,
                                    const std::string& name) override {
    return inner_.add_department(ws, name);
  }
  store::ApiKeyRecord create_api_key(const store::NewApiKey& key) override {
    return inner_.create_api_key(key);
  }
  std::optional<store::ApiKeyRecord> find_key_by_hash(const std::string& key_hash) override {
    return inner_.find_key_by_hash(key_hash);
  }
  std::vector<store::ApiKeyRecord> list_api_keys(const store::WorkspaceId& ws) override {
    return inner_.list_api_keys(ws);
  }
  std::variant<store::ApiKeyRecord, store::NotFound> revoke_api_key(
      const domain::ApiKeyId& id) override {
    return inner_.revoke_api_key(id);
  }
  std::variant<store::UsageReport, store::NotFound> key_usage(const domain::ApiKeyId& id,
                                                              domain::Timestamp now) override {
    return inner_.key_usage(id, now);
  }
  domain::Lead create_lead(const store::WorkspaceId& ws, const domain::NewLead& lead) override {
    return inner_.create_lead(ws, lead);
  }
  std::optional<domain::Lead> get_lead(const store::WorkspaceId& ws,
                                       const domain::LeadId& id) override {
    return inner_.get_lead(ws, id);
  }
  store::UpdateResult<domain::Lead> update_lead(const store::WorkspaceId& ws,
                                                const domain::LeadId& id,
                                                const domain::LeadPatch& patch) override {
    return inner_.update_lead(ws, id, patch);
  }
  bool delete_lead(const store::WorkspaceId& ws, const domain::LeadId& id) override {
    return inner_.delete_lead(ws, id);
  }
  store::Page<domain::Lead> list_leads(const store::WorkspaceId& ws,
                                       const store::LeadListQuery& q) override {
    return inner_.list_leads(ws, q);
  }
  store::CreateResult<domain::Contact> create_contact(const store::WorkspaceId& ws,
                                                      const domain::NewContact& contact) override {
    return inner_.create_contact(ws, contact);
  }
  std::optional<domain::Contact> get_contact(const store::WorkspaceId& ws,
                                             const domain::ContactId& id) override {
    return inner_.get_contact(ws, id);
  }
  store::UpdateResult<domain::Contact> update_contact(const store::WorkspaceId& ws,
                                                      const domain::ContactId& id,
                                                      const domain::ContactPatch& patch) override {
    return inner_.update_contact(ws, id, patch);
  }
  bool delete_contact(const store::WorkspaceId& ws, const domain::ContactId& id) override {
    return inner_.delete_contact(ws, id);
  }
  store::Page<domain::Contact> list_contacts(const store::WorkspaceId& ws,
                                             const store::ContactListQuery& q) override {
    return inner_.list_contacts(ws, q);
  }
  std::optional<domain::ConversationWithMessages> get_conversation(
      const store::WorkspaceId& ws, const domain::ConversationId& id) override {
    return inner_.get_conversation(ws, id);
  }
  store::UpdateResult<domain::ConversationPatchResult> update_conversation(
      const store::WorkspaceId& ws, const domain::ConversationId& id,
      const domain::ConversationPatch& patch) override {
    return inner_.update_conversation(ws, id, patch);
  }
  store::Page<domain::Conversation> list_conversations(
      const store::WorkspaceId& ws, const store::ConversationListQuery& q) override {
    return inner_.list_conversations(ws, q);
  }
  std::variant<store::ImportCounts, store::ImportFailure> import_batch(
      const store::WorkspaceId& ws, const std::vector<store::ImportItem>& items) override {
    return inner_.import_batch(ws, items);
  }

 private:
  store::Store& inner_;
};

}  // namespace leadline::auth::testing
