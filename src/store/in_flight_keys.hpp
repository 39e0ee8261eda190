// The idempotency keys whose first request is running in this process, so that a second
// request with one of them is answered 409 at once rather than queued behind the first.
#pragma once

#include <array>
#include <mutex>
#include <string>
#include <unordered_set>

namespace leadline::store {

class InFlightKeys {
 public:
  // Marks `key` running; false when it already was.
  bool begin(const std::string& key);
  void end(const std::string& key);

 private:
  // Sharded by hash: requests with different keys rarely meet on one mutex.
  struct Shard {
    std::mutex mutex;
    std::unordered_set<std::string> keys;
  };
  Shard& shard_of(const std::string& key);
  std::array<Shard, 16> shards_;
};

// Holds a key running for as long as it lives, if it could mark it.
class InFlightClaim {
 public:
  InFlightClaim(InFlightKeys& keys, std::string key)
      : keys_(keys), key_(std::move(key)), held_(keys_.begin(key_)) {}
  ~InFlightClaim() {
    if (held_) keys_.end(key_);
  }
  InFlightClaim(const InFlightClaim&) = delete;
  InFlightClaim& operator=(const InFlightClaim&) = delete;

  bool held() const { return held_; }

 private:
  InFlightKeys& keys_;
  std::string key_;
  bool held_;
};

}  // namespace leadline::store
