// The rate limiter every instance shares through Redis: one exact sliding window per key, kept
// in a sorted set and updated by one atomic script per request, on Redis's clock.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "auth/rate_limiter.hpp"
#include "auth/redis_connection.hpp"
#include "auth/redis_url.hpp"
#include "observability/logger.hpp"

namespace leadline::auth {

struct RedisLimiterOptions {
  RedisTimeouts timeouts;
  // A thread whose connection failed tries to connect again at most this often, and in between
  // answers `unavailable` at once instead of queueing requests behind a dead Redis.
  std::chrono::milliseconds reconnect_interval{100};
};

class RedisSlidingWindowLimiter final : public RateLimiter {
 public:
  // Outages and recoveries are reported through `logger` (which must outlive the limiter).
  RedisSlidingWindowLimiter(
      RateLimitPolicy policy, RedisEndpoint endpoint, RedisLimiterOptions options = {},
      const observability::Logger& logger = observability::Logger::fallback());
  ~RedisSlidingWindowLimiter() override;

  // Fails closed: when Redis cannot answer, the decision is `unavailable`. Each calling thread
  // uses its own connection, so threads never wait for each other.
  RateLimitDecision acquire(std::string_view key_id) override;

  // Asks Redis once from the calling thread: why it cannot be used now, or nothing when it can.
  std::optional<std::string> probe();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace leadline::auth
