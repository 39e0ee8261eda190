// Bookkeeping of open connections under one mutex: taken when a connection opens or closes,
// never per request.
#include "http/server/connection_registry.hpp"

#include <utility>
#include <vector>

#include "http/server/connection.hpp"

namespace leadline::http {

bool ConnectionRegistry::try_admit(std::size_t max_connections) {
  std::lock_guard lock(mutex_);
  if (stopping_ || open_ >= max_connections) return false;
  ++open_;
  return true;
}

bool ConnectionRegistry::enlist(std::weak_ptr<Connection> connection, Entry& entry) {
  std::lock_guard lock(mutex_);
  if (stopping_) return false;
  entry = enlisted_.insert(enlisted_.end(), std::move(connection));
  return true;
}

void ConnectionRegistry::leave(const Entry* entry) {
  std::function<void()> drained;
  {
    std::lock_guard lock(mutex_);
    if (entry != nullptr) enlisted_.erase(*entry);
    --open_;
    if (stopping_ && open_ == 0) drained = on_drained_;
  }
  if (drained) drained();
}

std::size_t ConnectionRegistry::open_connections() const {
  std::lock_guard lock(mutex_);
  return open_;
}

void ConnectionRegistry::stop_all() {
  std::vector<std::shared_ptr<Connection>> open;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    open.reserve(enlisted_.size());
    for (const auto& weak : enlisted_) {
      // A connection whose destructor is already running cannot be locked; it is leaving anyway.
      if (auto connection = weak.lock()) open.push_back(std::move(connection));
    }
  }
  for (const auto& connection : open) connection->stop();
}

void ConnectionRegistry::on_drained(std::function<void()> callback) {
  std::lock_guard lock(mutex_);
  on_drained_ = std::move(callback);
}

}  // namespace leadline::http
