// Sliding-window log: each key keeps the times of its counted requests inside the window, so
// the limit holds exactly at every instant instead of approximately as with fixed buckets.
#include "auth/sliding_window_limiter.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>

namespace leadline::auth {

namespace {

constexpr std::size_t kShardCount = 64;

// Idle keys are dropped by a sweep of their shard at most this often (or once per window when
// that is longer), so the sweep's cost stays negligible next to the requests.
constexpr std::int64_t kMinSweepIntervalMs = 10'000;

// Lets the maps be searched with a string_view, so a hit allocates nothing.
struct KeyHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

struct KeyLog {
  std::deque<std::int64_t> times;  // ascending, all inside the window after trimming
};

struct Shard {
  std::mutex mutex;
  std::unordered_map<std::string, KeyLog, KeyHash, std::equal_to<>> logs;
  std::int64_t next_sweep_ms = 0;
};

}  // namespace

Clock system_clock_ms() {
  return [] {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
  };
}

struct SlidingWindowLimiter::Impl {
  RateLimitPolicy policy;
  Clock clock;
  std::array<Shard, kShardCount> shards;

  Shard& shard_for(std::string_view key_id) { return shards[KeyHash{}(key_id) % kShardCount]; }

  void trim(KeyLog& log, std::int64_t now) const {
    // A request at time ts is inside the window at `now` while ts > now - window.
    while (!log.times.empty() && log.times.front() <= now - policy.window_ms) {
      log.times.pop_front();
    }
  }

  void sweep_if_due(Shard& shard, std::int64_t now) const {
    if (now < shard.next_sweep_ms) return;
    shard.next_sweep_ms = now + std::max(policy.window_ms, kMinSweepIntervalMs);
    std::erase_if(shard.logs, [&](const auto& entry) {
      const auto& times = entry.second.times;
      return times.empty() || times.back() <= now - policy.window_ms;
    });
  }
};

SlidingWindowLimiter::SlidingWindowLimiter(RateLimitPolicy policy, Clock clock)
    : impl_(std::make_unique<Impl>()) {
  impl_->policy = policy;
  impl_->clock = std::move(clock);
}

SlidingWindowLimiter::~SlidingWindowLimiter() = default;

RateLimitDecision SlidingWindowLimiter::acquire(std::string_view key_id) {
  const RateLimitPolicy& policy = impl_->policy;
  Shard& shard = impl_->shard_for(key_id);
  std::int64_t now = impl_->clock();

  std::lock_guard lock(shard.mutex);
  impl_->sweep_if_due(shard, now);
  auto it = shard.logs.find(key_id);
  if (it == shard.logs.end()) it = shard.logs.emplace(std::string(key_id), KeyLog{}).first;
  KeyLog& log = it->second;

  // If the wall clock steps back, time for this key does not: the log stays ordered and a
  // clock adjustment never frees requests early.
  if (!log.times.empty()) now = std::max(now, log.times.back());
  impl_->trim(log, now);

  RateLimitDecision decision;
  decision.limit = policy.limit;
  decision.window_ms = policy.window_ms;
  const auto count = static_cast<std::int64_t>(log.times.size());
  if (count < policy.limit) {
    log.times.push_back(now);
    decision.allowed = true;
    decision.remaining = policy.limit - count - 1;
    decision.reset_unix_s = ceil_seconds(log.times.front() + policy.window_ms);
    return decision;
  }
  const std::int64_t frees_at =
      log.times.empty() ? now + policy.window_ms : log.times.front() + policy.window_ms;
  return refusal(policy, frees_at, now);
}

}  // namespace leadline::auth
