// Owner numbers for the thread-local caches (thread_local_lru.hpp).
#include "store/thread_local_lru.hpp"

#include <atomic>

namespace leadline::store {

std::uint64_t next_thread_local_lru_owner() {
  static std::atomic<std::uint64_t> owners{0};
  return ++owners;
}

}  // namespace leadline::store
