// Check-out / check-in of read connections.
#include "store/sqlite/reader_pool.hpp"

#include <utility>

namespace leadline::store::sqlite {

ReaderPool::ReaderPool(std::string path, std::size_t max_idle)
    : path_(std::move(path)), max_idle_(max_idle) {}

ReaderPool::Lease::Lease(ReaderPool& pool, std::unique_ptr<Connection> conn)
    : pool_(pool), conn_(std::move(conn)) {}

ReaderPool::Lease::~Lease() {
  pool_.give_back(std::move(conn_));
}

ReaderPool::Lease ReaderPool::acquire() {
  {
    std::lock_guard lock(mutex_);
    if (!idle_.empty()) {
      auto conn = std::move(idle_.back());
      idle_.pop_back();
      return Lease(*this, std::move(conn));
    }
  }
  // Opened outside the lock: opening touches the file system and must not stall other readers.
  return Lease(*this, std::make_unique<Connection>(path_, Connection::Open::kExisting));
}

void ReaderPool::give_back(std::unique_ptr<Connection> conn) {
  // A connection left inside a transaction by a failure would pin an old snapshot; drop it.
  if (conn->in_transaction()) return;
  std::lock_guard lock(mutex_);
  if (idle_.size() < max_idle_) idle_.push_back(std::move(conn));
}

}  // namespace leadline::store::sqlite
