// The per-key rate limit seam: an in-process sliding window, or one shared through Redis by
// every instance.
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
  std::int64_t window_ms = 0;      // the policy's window, so that a refusal can name it
  std::int64_t remaining = 0;      // after counting this request (0 when refused)
  std::int64_t reset_unix_s = 0;   // when the oldest counted request leaves the window (ceil)
  std::int64_t retry_after_s = 0;  // >= 1 when refused
  // The shared window could not be consulted (Redis down, slow or failing): the request was
  // neither counted nor allowed, and the numbers above mean nothing.
  bool unavailable = false;
};

// Unix seconds of a Unix-millisecond time, rounded up: the earliest whole second at which the
// moment has passed, as X-RateLimit-Reset and Retry-After promise.
std::int64_t ceil_seconds(std::int64_t ms);

// A refusal: the window frees its oldest slot at `frees_at_ms`; Retry-After is at least 1 s.
RateLimitDecision refusal(const RateLimitPolicy& policy, std::int64_t frees_at_ms,
                          std::int64_t now_ms);

// A window's length as a sentence names it: "60 s", or "1500 ms" when not whole seconds.
std::string window_text(std::int64_t window_ms);

class RateLimiter {
 public:
  virtual ~RateLimiter() = default;
  // Counts the request when allowed; refused requests are not counted. Exact under
  // concurrency: of N simultaneous calls at limit L, exactly min(N, L) are allowed. Never
  // throws for an unreachable backing store; that is an `unavailable` decision instead.
  virtual RateLimitDecision acquire(std::string_view key_id) = 0;
};

}  // namespace leadline::auth
