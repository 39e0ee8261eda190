// One opened database: its engine and every store over it, by concern. Callers take the store
// they need (database.leads(), database.keys(), ...); the HTTP, API and CLI layers see nothing
// of SQL.
//
// Thread safety: every store method may be called from any thread concurrently.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "domain/clock.hpp"
#include "store/contact_store.hpp"
#include "store/conversation_store.hpp"
#include "store/delivery_store.hpp"
#include "store/engine.hpp"
#include "store/event_store.hpp"
#include "store/idempotency_store.hpp"
#include "store/import_store.hpp"
#include "store/key_store.hpp"
#include "store/lead_store.hpp"
#include "store/operation.hpp"
#include "store/operation_runner.hpp"
#include "store/session_store.hpp"
#include "store/usage_store.hpp"
#include "store/user_store.hpp"
#include "store/webhook_store.hpp"
#include "store/workspace_store.hpp"

namespace leadline::store {

class Database {
 public:
  // Loads (or creates) the cursor secret through `engine`. `metrics` may be null.
  Database(std::unique_ptr<Engine> engine, const domain::Clock& clock,
           OperationMetrics* metrics = nullptr);
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  WorkspaceStore& workspaces() { return workspaces_; }
  KeyStore& keys() { return keys_; }
  UsageStore& usage() { return usage_; }
  LeadStore& leads() { return leads_; }
  ContactStore& contacts() { return contacts_; }
  ConversationStore& conversations() { return conversations_; }
  ImportStore& imports() { return imports_; }
  EventStore& events() { return events_; }
  WebhookStore& webhooks() { return webhooks_; }
  DeliveryStore& deliveries() { return deliveries_; }
  IdempotencyStore& idempotency() { return idempotency_; }
  UserStore& users() { return users_; }
  SessionStore& sessions() { return sessions_; }

  // Notified after a committed write recorded deliveries (wakes the delivery workers).
  DeliverySignal& delivery_signal() { return runner_.delivery_signal(); }

  // The store's clock: what writes stamp and sessions expire by.
  domain::Timestamp now() const { return runner_.now(); }

  // Secret for cursor HMACs; the same for every instance on this database.
  const std::string& cursor_secret() const { return cursor_secret_; }

  // Readiness, pool state and whether calls wait on the network.
  Engine& engine() { return *engine_; }

 private:
  std::unique_ptr<Engine> engine_;
  OperationRunner runner_;
  WorkspaceStore workspaces_{runner_};
  KeyStore keys_{runner_};
  UsageStore usage_{runner_};
  LeadStore leads_{runner_};
  ContactStore contacts_{runner_};
  ConversationStore conversations_{runner_};
  ImportStore imports_{runner_};
  EventStore events_{runner_};
  WebhookStore webhooks_{runner_};
  DeliveryStore deliveries_{runner_};
  IdempotencyStore idempotency_{runner_};
  UserStore users_{runner_};
  SessionStore sessions_{runner_};
  std::string cursor_secret_;
};

// What a deployment may tune when it opens a database; the defaults are `serve`'s.
struct OpenOptions {
  // Connections kept to a PostgreSQL server (`serve` opens them all before it listens:
  // Engine::warm_up). SQLite keeps its own reader pool and ignores it.
  std::size_t postgres_pool_size = 16;
};

// Opens the database named by a --db URL ("sqlite:PATH", or "postgres://..." /
// "postgresql://..." as libpq reads it), applying migrations. Throws std::runtime_error
// (StoreUnavailable when the database cannot be reached) with a readable message when it cannot.
std::unique_ptr<Database> open_database(const std::string& db_url,
                                        const domain::Clock& clock = domain::system_clock(),
                                        OperationMetrics* metrics = nullptr,
                                        const OpenOptions& options = {});

}  // namespace leadline::store
