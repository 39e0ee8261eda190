// Wakes this process's delivery workers when a committed write recorded deliveries, so the
// first attempt follows the commit at once instead of at the next poll.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace leadline::store {

class DeliverySignal {
 public:
  void notify() {
    {
      const std::lock_guard lock(mutex_);
      ++generation_;
    }
    changed_.notify_all();
  }

  // The generation now; pass it to wait_for so a notify in between is not missed.
  std::uint64_t generation() {
    const std::lock_guard lock(mutex_);
    return generation_;
  }

  // Returns when notified after `seen` or after `timeout`.
  void wait_for(std::uint64_t seen, std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, timeout, [&] { return generation_ != seen; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::uint64_t generation_ = 0;
};

}  // namespace leadline::store
