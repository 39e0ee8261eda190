// The PostgreSQL pool's connection counts for leadline_db_pool_connections: one short lock per
// scrape, nothing on the request path.
#include "store/postgres/connection_pool.hpp"
#include "store/postgres/postgres_store.hpp"

namespace leadline::store::postgres {

PoolCounts ConnectionPool::counts() {
  std::lock_guard lock(mutex_);
  return PoolCounts{.idle = idle_.size(), .in_use = open_ - idle_.size()};
}

std::optional<PoolCounts> PostgresStore::pool_counts() {
  return pool_.counts();
}

}  // namespace leadline::store::postgres
