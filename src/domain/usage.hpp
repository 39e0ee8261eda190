// API usage as records: the counts flushed per key, hour and endpoint, the report an operator
// reads, and the series the dashboard charts.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "domain/ids.hpp"
#include "domain/timestamp.hpp"

namespace leadline::domain {

inline constexpr std::int64_t kMsPerHour = 3'600'000;
inline constexpr std::int64_t kHoursPerDay = 24;

// Hours since the Unix epoch, UTC, of the hour `t` falls in. Rounded down before 1970 too, so
// every hour holds exactly its own 3,600,000 milliseconds.
constexpr std::int64_t utc_hour(Timestamp t) {
  return t.unix_ms >= 0 ? t.unix_ms / kMsPerHour : -((-t.unix_ms + kMsPerHour - 1) / kMsPerHour);
}

// Days since the Unix epoch, UTC, of the day an hour number falls in.
constexpr std::int64_t utc_day_of_hour(std::int64_t hour) {
  return hour >= 0 ? hour / kHoursPerDay : -((-hour + kHoursPerDay - 1) / kHoursPerDay);
}

// Usage counted in memory and flushed in batches: one row per key, UTC hour and endpoint.
struct UsageDelta {
  ApiKeyId key_id;
  std::int64_t hour;     // utc_hour of the requests
  std::string endpoint;  // "GET /leads"
  std::int64_t requests = 0;
  std::int64_t errors = 0;        // responses >= 400, 429s included
  std::int64_t rate_limited = 0;  // 429s
  Timestamp last_at;              // the latest request counted
};

struct UsageReport {
  std::int64_t today = 0;
  std::int64_t this_week = 0;
  std::int64_t this_month = 0;
  std::map<std::string, std::int64_t> by_endpoint;  // this month
  double error_rate = 0;                            // this month
  std::int64_t rate_limited = 0;                    // this month
};

// The requests of one hour or day by outcome; the three add up to the requests.
struct UsageBucket {
  std::int64_t start_ms = 0;  // the bucket's first millisecond, Unix ms
  std::int64_t success = 0;   // responses below 400
  std::int64_t error = 0;     // responses >= 400 other than 429
  std::int64_t rate_limited = 0;
  friend bool operator==(const UsageBucket&, const UsageBucket&) = default;
};

struct UsageSeries {
  static constexpr std::size_t kHours = 48;
  static constexpr std::size_t kDays = 30;
  std::vector<UsageBucket> hourly;  // kHours entries, oldest first, ending with the current hour
  std::vector<UsageBucket> daily;   // kDays entries, oldest first, ending today (UTC)
};

}  // namespace leadline::domain
