// A bounded pool of PostgreSQL connections: each one is used by one thread at a time, keeps
// its prepared statements across uses, and is replaced when the server drops it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "store/engine.hpp"
#include "store/postgres/pg_connection.hpp"

namespace leadline::store::postgres {

class ConnectionPool {
 public:
  // The shard rows of each counter (migration 0014's modulus). The pool's connections take
  // consecutive shards from a random start, so that one instance's connections never raise the
  // same row and wait on each other's commits; instances may still meet on one.
  static constexpr int kWriteShards = 16;

  // Opens connections on demand, at most `max_size` at once.
  ConnectionPool(std::string conninfo, std::size_t max_size,
                 std::chrono::milliseconds acquire_timeout);

  // A connection owned by one thread until the lease ends; then it goes back to the pool,
  // unless it is broken or was left inside a transaction, in which case it is closed.
  class Lease {
   public:
    Lease(ConnectionPool& pool, std::unique_ptr<Connection> conn);
    ~Lease();
    Lease(Lease&& other) noexcept;
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    Lease& operator=(Lease&&) = delete;
    Connection& conn() { return *conn_; }

   private:
    ConnectionPool* pool_;
    std::unique_ptr<Connection> conn_;
  };

  // An idle connection, a new one while under max_size, or the next one given back. Throws
  // StoreUnavailable when none is free within the acquire timeout or connecting fails.
  Lease acquire();

  // Closes every idle connection: after one turned out dropped by the server (a restart), the
  // others most likely were too.
  void drop_idle();

  const std::string& conninfo() const { return conninfo_; }
  std::size_t max_size() const { return max_size_; }

  // Idle and leased (or being connected) connections now.
  PoolCounts counts();

 private:
  void give_back(std::unique_ptr<Connection> conn);
  // Called with mutex_ held.
  void release_shard(const Connection& conn);

  std::string conninfo_;
  std::size_t max_size_;
  std::chrono::milliseconds acquire_timeout_;
  std::mutex mutex_;
  std::condition_variable returned_;
  std::vector<std::unique_ptr<Connection>> idle_;
  std::size_t open_ = 0;                // idle plus leased, plus those being connected
  std::vector<int> free_write_shards_;  // of connections not open; the next one takes the last
};

}  // namespace leadline::store::postgres
