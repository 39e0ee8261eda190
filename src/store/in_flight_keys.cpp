// A set per shard under its own mutex: held for an insert or an erase, never across I/O.
#include "store/in_flight_keys.hpp"

#include <functional>

namespace leadline::store {

InFlightKeys::Shard& InFlightKeys::shard_of(const std::string& key) {
  return shards_[std::hash<std::string>{}(key) % shards_.size()];
}

bool InFlightKeys::begin(const std::string& key) {
  Shard& shard = shard_of(key);
  const std::lock_guard lock(shard.mutex);
  return shard.keys.insert(key).second;
}

void InFlightKeys::end(const std::string& key) {
  Shard& shard = shard_of(key);
  const std::lock_guard lock(shard.mutex);
  shard.keys.erase(key);
}

}  // namespace leadline::store
