// Connection discipline of the PostgreSQL engine: transactions, retries and reconnection.
#include "store/postgres/postgres_engine.hpp"

#include <optional>

#include "store/postgres/postgres_migrations.hpp"
#include "store/schema/migration_runner.hpp"

namespace leadline::store::postgres {

PostgresEngine::PostgresEngine(const std::string& url, const domain::Clock& clock,
                               std::size_t pool_size)
    : pool_(url, pool_size, kAcquireTimeout) {
  auto lease = pool_.acquire();
  Transaction tx(lease.conn(), Transaction::Kind::kWrite);
  apply_migrations(lease.conn(), migrations(), clock.now());
  tx.commit();
}

void PostgresEngine::run(Access access, Work work) {
  switch (access) {
    case Access::kRead:
      return run_statement(work);
    case Access::kSnapshot:
      return run_transaction(Transaction::Kind::kRead, work);
    case Access::kWrite:
      return run_transaction(Transaction::Kind::kWrite, work);
  }
}

// A connection lost before COMMIT was sent (dropped by a server restart while idle, found out by
// the first round trip) is replaced once, since the server undid whatever had run on it; so is
// a read-only one. A write that loses its connection while committing is not repeated: it may
// have committed, and the caller gets StoreUnavailable.
void PostgresEngine::run_transaction(Transaction::Kind kind, Work work) {
  bool reconnected = false;
  for (int attempt = 1;; ++attempt) {
    auto lease = pool_.acquire();
    std::optional<Transaction> tx;
    try {
      tx.emplace(lease.conn(), kind);
      // A write whose work asks to keep nothing is rolled back by the transaction's destructor.
      if (work(lease.conn())) tx->commit();
      return;
    } catch (const StoreUnavailable&) {
      const bool nothing_written = !tx || !tx->committing() || kind == Transaction::Kind::kRead;
      if (reconnected || !nothing_written) throw;
      reconnected = true;
      pool_.drop_idle();
    } catch (const PgError& e) {
      if (!e.is_transient() || attempt >= kMaxAttempts) throw;
    }
  }
}

// One statement needs no transaction; it is simply run again on a fresh connection when the
// pooled one turns out dropped.
void PostgresEngine::run_statement(Work work) {
  for (bool reconnected = false;; reconnected = true) {
    auto lease = pool_.acquire();
    try {
      work(lease.conn());
      return;
    } catch (const StoreUnavailable&) {
      if (reconnected) throw;
      pool_.drop_idle();
    }
  }
}

}  // namespace leadline::store::postgres
