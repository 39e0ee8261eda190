// The PostgreSQL engine, which any number of instances may share: a bounded pool of
// connections that keep their prepared statements. Each write is one READ COMMITTED
// transaction that locks the rows it changes; multi-statement reads run in one REPEATABLE READ
// snapshot; single reads run as one statement.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

#include "domain/clock.hpp"
#include "store/engine.hpp"
#include "store/postgres/connection_pool.hpp"

namespace leadline::store::postgres {

class PostgresEngine final : public Engine {
 public:
  static constexpr std::chrono::milliseconds kAcquireTimeout{30'000};

  // Connects with a libpq URL and applies migrations. Throws StoreUnavailable when the
  // database cannot be reached, std::runtime_error otherwise.
  PostgresEngine(const std::string& url, const domain::Clock& clock, std::size_t pool_size);

  void run(Access access, Work work) override;
  bool ping() override;     // in postgres_ping.cpp
  void warm_up() override;  // in postgres_warm_up.cpp
  std::optional<PoolCounts> pool_counts() override { return pool_.counts(); }
  bool remote() const override { return true; }

 private:
  // Deadlocks between writers are resolved by the server aborting one; it runs again.
  static constexpr int kMaxAttempts = 4;

  void run_transaction(Transaction::Kind kind, Work work);
  void run_statement(Work work);

  ConnectionPool pool_;
};

}  // namespace leadline::store::postgres
