// Parsing of the --rate-limit policy "N/D" (count per duration).
#include "auth/rate_limiter.hpp"

#include <algorithm>
#include <limits>

namespace leadline::auth {

namespace {

// Far beyond any useful window (about 31,700 years), and small enough that a Unix-millisecond
// timestamp plus the window can never overflow.
constexpr std::int64_t kMaxWindowMs = 1'000'000'000'000'000;

// A positive decimal integer of digits only (no sign, no spaces), or nothing on overflow.
std::optional<std::int64_t> parse_positive(std::string_view digits) {
  if (digits.empty()) return std::nullopt;
  std::int64_t value = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    const int digit = c - '0';
    if (value > (std::numeric_limits<std::int64_t>::max() - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  if (value == 0) return std::nullopt;
  return value;
}

std::optional<std::int64_t> unit_ms(std::string_view unit) {
  if (unit == "ms") return 1;
  if (unit == "s") return 1'000;
  if (unit == "m") return 60'000;
  if (unit == "h") return 3'600'000;
  return std::nullopt;
}

}  // namespace

std::optional<RateLimitPolicy> parse_rate_limit(std::string_view text) {
  const std::size_t slash = text.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  const auto limit = parse_positive(text.substr(0, slash));
  if (!limit) return std::nullopt;

  const std::string_view duration = text.substr(slash + 1);
  const std::size_t unit_start = duration.find_first_not_of("0123456789");
  if (unit_start == std::string_view::npos) return std::nullopt;
  const auto amount = parse_positive(duration.substr(0, unit_start));
  const auto unit = unit_ms(duration.substr(unit_start));
  if (!amount || !unit) return std::nullopt;
  if (*amount > kMaxWindowMs / *unit) return std::nullopt;
  return RateLimitPolicy{*limit, *amount * *unit};
}

std::int64_t ceil_seconds(std::int64_t ms) {
  return ms >= 0 ? (ms + 999) / 1000 : -(-ms / 1000);
}

RateLimitDecision refusal(const RateLimitPolicy& policy, std::int64_t frees_at_ms,
                          std::int64_t now_ms) {
  RateLimitDecision decision;
  decision.limit = policy.limit;
  decision.window_ms = policy.window_ms;
  decision.reset_unix_s = ceil_seconds(frees_at_ms);
  decision.retry_after_s = std::max<std::int64_t>(1, ceil_seconds(frees_at_ms - now_ms));
  return decision;
}

std::string window_text(std::int64_t window_ms) {
  if (window_ms % 1000 == 0) return std::to_string(window_ms / 1000) + " s";
  return std::to_string(window_ms) + " ms";
}

}  // namespace leadline::auth
