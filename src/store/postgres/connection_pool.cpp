// Connecting happens outside the mutex, so one slow connect does not stall other threads.
#include "store/postgres/connection_pool.hpp"

#include <random>

#include "store/engine.hpp"

namespace leadline::store::postgres {

ConnectionPool::ConnectionPool(std::string conninfo, std::size_t max_size,
                               std::chrono::milliseconds acquire_timeout)
    : conninfo_(std::move(conninfo)),
      max_size_(max_size == 0 ? 1 : max_size),
      acquire_timeout_(acquire_timeout) {
  const int first = static_cast<int>(std::random_device{}() % kWriteShards);
  for (std::size_t i = max_size_; i-- > 0;) {
    free_write_shards_.push_back(static_cast<int>((first + i) % kWriteShards));
  }
}

ConnectionPool::Lease::Lease(ConnectionPool& pool, std::unique_ptr<Connection> conn)
    : pool_(&pool), conn_(std::move(conn)) {}

ConnectionPool::Lease::Lease(Lease&& other) noexcept
    : pool_(other.pool_), conn_(std::move(other.conn_)) {}

ConnectionPool::Lease::~Lease() {
  if (conn_) pool_->give_back(std::move(conn_));
}

ConnectionPool::Lease ConnectionPool::acquire() {
  int shard = 0;
  {
    std::unique_lock lock(mutex_);
    const bool ready = returned_.wait_for(lock, acquire_timeout_,
                                          [&] { return !idle_.empty() || open_ < max_size_; });
    if (!ready) {
      throw StoreUnavailable("database unavailable: no connection free within " +
                             std::to_string(acquire_timeout_.count()) + " ms");
    }
    if (!idle_.empty()) {
      auto conn = std::move(idle_.back());
      idle_.pop_back();
      return Lease(*this, std::move(conn));
    }
    ++open_;
    shard = free_write_shards_.back();
    free_write_shards_.pop_back();
  }
  try {
    return Lease(*this, std::make_unique<Connection>(conninfo_, shard));
  } catch (...) {
    std::lock_guard lock(mutex_);
    free_write_shards_.push_back(shard);
    --open_;
    returned_.notify_one();
    throw;
  }
}

void ConnectionPool::drop_idle() {
  std::vector<std::unique_ptr<Connection>> dropped;
  {
    std::lock_guard lock(mutex_);
    dropped.swap(idle_);
    for (const auto& conn : dropped) release_shard(*conn);
    open_ -= dropped.size();
    returned_.notify_all();
  }
}

void ConnectionPool::give_back(std::unique_ptr<Connection> conn) {
  const bool reusable = !conn->broken() && !conn->in_transaction();
  std::unique_lock lock(mutex_);
  if (reusable) {
    idle_.push_back(std::move(conn));
  } else {
    release_shard(*conn);
    --open_;
  }
  returned_.notify_one();
  lock.unlock();
  conn.reset();  // closing talks to the server: outside the mutex
}

void ConnectionPool::release_shard(const Connection& conn) {
  if (conn.write_shard()) free_write_shards_.push_back(*conn.write_shard());
}

// One short lock per scrape of leadline_db_pool_connections, nothing on the request path.
PoolCounts ConnectionPool::counts() {
  std::lock_guard lock(mutex_);
  return PoolCounts{.idle = idle_.size(), .in_use = open_ - idle_.size()};
}

}  // namespace leadline::store::postgres
