// leadline::store::Store over one SQLite file, which several processes may open at once.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <type_traits>

#include "store/sqlite/group_commit.hpp"
#include "store/sqlite/reader_pool.hpp"
#include "store/sqlite/sqlite_connection.hpp"
#include "store/store.hpp"

namespace leadline::store::sqlite {

// One writer connection; concurrent writes share its transactions through group commit, so a
// burst of writes costs one fsync, not one each. Reads use pooled connections of their own, so
// they never queue behind writes (WAL lets them run alongside the writer).
class SqliteStore final : public Store {
 public:
  // Opens or creates the file, applies migrations. Throws std::runtime_error when it cannot.
  explicit SqliteStore(const std::string& path);

  bool ping() override;  // in *_ping.cpp
  std::string cursor_secret() override;

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

 private:
  // Runs `f(Connection&)` on the writer connection and returns once its changes are durable.
  template <class F>
  auto write(F&& f) {
    using Result = decltype(f(*writer_));
    if constexpr (std::is_void_v<Result>) {
      group_.run([&](Connection& c) {
        f(c);
        return true;
      });
    } else {
      std::optional<Result> result;
      group_.run([&](Connection& c) {
        result.emplace(f(c));
        return true;
      });
      return std::move(*result);
    }
  }

  // Runs `f(Connection&)` on a pooled read connection; `snapshot` wraps it in a read
  // transaction for reads made of several statements.
  template <class F>
  auto read(F&& f) {
    auto lease = readers_.acquire();
    return f(lease.conn());
  }
  template <class F>
  auto read_snapshot(F&& f) {
    auto lease = readers_.acquire();
    Transaction tx(lease.conn(), Transaction::Kind::kRead);
    auto result = f(lease.conn());
    tx.commit();
    return result;
  }

  std::unique_ptr<Connection> writer_;
  GroupCommit group_{*writer_};
  ReaderPool readers_;
  std::string cursor_secret_;
};

}  // namespace leadline::store::sqlite
