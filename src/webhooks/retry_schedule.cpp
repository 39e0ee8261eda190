// Jitter spreads the retries of many deliveries that failed together (an endpoint down for a
// while) so they do not all come back in the same second; the random number is a parameter so
// the bounds can be tested exactly.
#include "webhooks/retry_schedule.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

namespace leadline::webhooks {

namespace {

using std::chrono::milliseconds;

constexpr std::chrono::seconds kRetryAfterCap{24 * 60 * 60};

std::string_view trim_spaces(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::optional<std::int64_t> unit_in_ms(std::string_view unit) {
  if (unit == "ms") return 1;
  if (unit == "s") return 1000;
  if (unit == "m") return 60 * 1000;
  if (unit == "h") return 60 * 60 * 1000;
  if (unit == "d") return 24 * 60 * 60 * 1000;
  return std::nullopt;
}

}  // namespace

std::optional<milliseconds> parse_duration(std::string_view text) {
  const char* const begin = text.data();
  const char* const end = begin + text.size();
  std::uint64_t value = 0;
  // from_chars takes no sign and no white space, so "-5s" and " 5s" are refused here.
  const auto [stop, error] = std::from_chars(begin, end, value);
  if (error != std::errc{} || stop == begin || value == 0) return std::nullopt;
  const auto unit = unit_in_ms(std::string_view(stop, static_cast<std::size_t>(end - stop)));
  if (!unit) return std::nullopt;
  const auto max = static_cast<std::uint64_t>(std::numeric_limits<milliseconds::rep>::max());
  if (value > max / static_cast<std::uint64_t>(*unit)) return std::nullopt;
  return milliseconds(static_cast<milliseconds::rep>(value) * *unit);
}

std::optional<std::vector<milliseconds>> parse_retry_schedule(std::string_view text) {
  std::vector<milliseconds> delays;
  while (true) {
    const std::size_t comma = text.find(',');
    const auto delay = parse_duration(trim_spaces(text.substr(0, comma)));
    if (!delay) return std::nullopt;
    delays.push_back(*delay);
    if (comma == std::string_view::npos) return delays;
    text.remove_prefix(comma + 1);
  }
}

RetrySchedule::RetrySchedule(std::vector<milliseconds> delays) : delays_(std::move(delays)) {}

std::size_t RetrySchedule::max_attempts() const {
  return delays_.size() + 1;
}

std::optional<milliseconds> RetrySchedule::next_delay(
    int failed_attempt, double unit_random, std::optional<std::chrono::seconds> retry_after) const {
  if (failed_attempt < 1 || static_cast<std::size_t>(failed_attempt) > delays_.size()) {
    return std::nullopt;
  }
  // Out-of-range or NaN randomness is clamped rather than trusted, so the delay stays in bounds.
  const double r = std::isnan(unit_random) ? 0.0 : std::clamp(unit_random, 0.0, 1.0);
  const double base =
      static_cast<double>(delays_[static_cast<std::size_t>(failed_attempt) - 1].count());
  const double varied = std::round(base * (0.9 + 0.2 * r));
  const double max = static_cast<double>(std::numeric_limits<milliseconds::rep>::max() / 2);
  milliseconds delay(static_cast<milliseconds::rep>(std::min(varied, max)));
  if (retry_after) {
    const milliseconds floor = std::min(*retry_after, kRetryAfterCap);
    delay = std::max(delay, floor);
  }
  return delay;
}

std::vector<milliseconds> default_retry_schedule() {
  using namespace std::chrono_literals;
  return {5s, 5min, 30min, 2h, 5h, 10h, 10h};
}

std::optional<std::chrono::seconds> parse_retry_after(std::string_view value) {
  value = trim_spaces(value);
  if (value.empty()) return std::nullopt;
  // delta-seconds is 1*DIGIT of any length; a value beyond the cap is simply the cap.
  std::int64_t seconds = 0;
  for (const char c : value) {
    if (c < '0' || c > '9') return std::nullopt;
    seconds = std::min<std::int64_t>(seconds * 10 + (c - '0'), kRetryAfterCap.count());
  }
  return std::chrono::seconds(seconds);
}

}  // namespace leadline::webhooks
