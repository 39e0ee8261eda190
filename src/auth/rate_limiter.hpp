// The per-key rate limit seam: in-process sliding window now, a shared (Redis) window later.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace leadline::auth {

struct RateLimitPolicy {
  std::int64_t limit = 100;
  std::int64_t window_ms = 60'000;
};

// Parses "N/D" with D a positive duration in ms, s, m or h ("100/60s", "5/2s", "100/1m").
std::optional<RateLimitPolicy> parse_rate_limit(std::string_view text);

struct RateLimitDecision {
  bool allowed = false;
  std::int64_t limit = 0;
  std::int64_t remaining = 0;      // after counting this request (0 when refused)
  std::int64_t reset_unix_s = 0;   // when the oldest counted request leaves the window (ceil)
  std::int64_t retry_after_s = 0;  // >= 1 when refused
};

class RateLimiter {
 public:
  virtual ~RateLimiter() = default;
  // Counts the request when allowed; refused requests are not counted. Exact under
  // concurrency: of N simultaneous calls at limit L, exactly min(N, L) are allowed.
  virtual RateLimitDecision acquire(std::string_view key_id) = 0;
};

}  // namespace leadline::auth
