// Exact sliding-window log per key, in process memory, sharded to keep lock contention low.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "auth/rate_limiter.hpp"

namespace leadline::auth {

// Wall-clock Unix milliseconds; injected so tests can drive time.
using Clock = std::function<std::int64_t()>;
Clock system_clock_ms();

class SlidingWindowLimiter final : public RateLimiter {
 public:
  SlidingWindowLimiter(RateLimitPolicy policy, Clock clock = system_clock_ms());
  ~SlidingWindowLimiter() override;
  RateLimitDecision acquire(std::string_view key_id) override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace leadline::auth
