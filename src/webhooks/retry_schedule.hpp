// When a failed delivery is tried again: the schedule of delays (--webhook-retry-schedule), its
// jitter and the Retry-After floor, plus the duration syntax the webhook settings share.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace leadline::webhooks {

// "5s,5m,30m,2h,5h,10h,10h": delays in ms, s, m, h or d; nullopt when malformed or empty or any
// delay is 0. Spaces around an entry are allowed ("5s, 5m").
std::optional<std::vector<std::chrono::milliseconds>> parse_retry_schedule(std::string_view text);

// A duration "30d", "12h", "90s", "500ms", "5m" (units ms, s, m, h, d), positive; nullopt
// otherwise. Used for --event-retention, --webhook-timeout, --webhook-disable-after.
std::optional<std::chrono::milliseconds> parse_duration(std::string_view text);

class RetrySchedule {
 public:
  // The default schedule is default_retry_schedule().
  explicit RetrySchedule(std::vector<std::chrono::milliseconds> delays);
  std::size_t max_attempts() const;  // delays + 1

  // The delay before attempt `failed_attempt + 1` after attempt `failed_attempt` (1-based)
  // failed, varied by +-10% using `unit_random` in [0,1); nullopt when that was the last attempt
  // (or `failed_attempt` < 1). `retry_after`, when present, is a floor (capped at 24 h).
  std::optional<std::chrono::milliseconds> next_delay(
      int failed_attempt, double unit_random,
      std::optional<std::chrono::seconds> retry_after = std::nullopt) const;

 private:
  std::vector<std::chrono::milliseconds> delays_;
};

std::vector<std::chrono::milliseconds> default_retry_schedule();

// A Retry-After header value in whole seconds (delta-seconds only; HTTP-dates ignored), capped at
// 24 h; nullopt when absent/malformed.
std::optional<std::chrono::seconds> parse_retry_after(std::string_view value);

}  // namespace leadline::webhooks
