// leadline::store::Store over a PostgreSQL database, which any number of instances may share.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <type_traits>

#include "store/postgres/connection_pool.hpp"
#include "store/postgres/pg_connection.hpp"
#include "store/store.hpp"

namespace leadline::store::postgres {

// Each write is one READ COMMITTED transaction that locks the rows it changes; multi-statement
// reads (a list page and its count) run in one REPEATABLE READ snapshot; single reads run as
// one statement. Connections come from a bounded pool and keep their prepared statements.
class PostgresStore final : public Store {
 public:
  static constexpr std::size_t kDefaultPoolSize = 16;
  static constexpr std::chrono::milliseconds kAcquireTimeout{30'000};

  // Connects with a libpq URL, applies migrations and loads the cursor secret. Throws
  // StoreUnavailable when the database cannot be reached, std::runtime_error otherwise.
  explicit PostgresStore(const std::string& url, std::size_t pool_size = kDefaultPoolSize);

  bool ping() override;                              // in postgres_ping.cpp
  std::optional<PoolCounts> pool_counts() override;  // in pool_counts.cpp
  std::string cursor_secret() override;
  bool remote() const override { return true; }

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
  // Deadlocks between writers are resolved by the server aborting one; it runs again.
  static constexpr int kMaxAttempts = 4;

  // Runs `f(Connection&)` in one transaction of `kind`, committing when should_commit(result)
  // (always when f returns nothing).
  // A connection that fails at BEGIN (dropped by a server restart while idle) is replaced
  // once, since nothing has run on it; so is a read-only one that fails later. A write that
  // loses its connection midway is not repeated: the caller gets StoreUnavailable.
  template <class F, class ShouldCommit>
  auto transaction(Transaction::Kind kind, F&& f, ShouldCommit should_commit) {
    bool reconnected = false;
    for (int attempt = 1;; ++attempt) {
      auto lease = pool_.acquire();
      std::optional<Transaction> tx;
      try {
        tx.emplace(lease.conn(), kind);
        if constexpr (std::is_void_v<std::invoke_result_t<F&, Connection&>>) {
          f(lease.conn());
          tx->commit();
          return;
        } else {
          auto result = f(lease.conn());
          if (should_commit(result)) tx->commit();
          return result;
        }
      } catch (const StoreUnavailable&) {
        const bool nothing_written = !tx || kind == Transaction::Kind::kRead;
        if (reconnected || !nothing_written) throw;
        reconnected = true;
        pool_.drop_idle();
      } catch (const PgError& e) {
        if (!e.is_transient() || attempt >= kMaxAttempts) throw;
      }
    }
  }

  template <class F>
  auto write(F&& f) {
    return transaction(Transaction::Kind::kWrite, std::forward<F>(f),
                       [](const auto&) { return true; });
  }

  template <class F>
  auto read_snapshot(F&& f) {
    return transaction(Transaction::Kind::kRead, std::forward<F>(f),
                       [](const auto&) { return true; });
  }

  // One statement needs no transaction; it is simply run again on a fresh connection when
  // the pooled one turns out dropped.
  template <class F>
  auto read(F&& f) {
    for (bool reconnected = false;; reconnected = true) {
      auto lease = pool_.acquire();
      try {
        return f(lease.conn());
      } catch (const StoreUnavailable&) {
        if (reconnected) throw;
        pool_.drop_idle();
      }
    }
  }

  ConnectionPool pool_;
  std::string cursor_secret_;
};

}  // namespace leadline::store::postgres
