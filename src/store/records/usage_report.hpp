// Turns a key's stored usage rows (one per UTC day and endpoint) into the usage report; the
// backends only fetch the rows of the days the report can cover.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "domain/timestamp.hpp"
#include "domain/usage.hpp"

namespace leadline::store {

struct UsageRow {
  std::int64_t day = 0;
  std::string endpoint;
  std::int64_t requests = 0;
  std::int64_t errors = 0;
  std::int64_t rate_limited = 0;
};

// Closed range of day numbers (days since the Unix epoch, UTC).
struct DayRange {
  std::int64_t first;
  std::int64_t last;
  bool contains(std::int64_t day) const { return day >= first && day <= last; }
};

// Every day that the report for `now` looks at: its ISO week and its calendar month.
DayRange usage_days(domain::Timestamp now);

// today: the UTC day of `now`; this_week: its ISO week (Monday to Sunday); this_month: its UTC
// calendar month, which also bounds by_endpoint, error_rate and rate_limited.
domain::UsageReport summarize_usage(const std::vector<UsageRow>& rows, domain::Timestamp now);

}  // namespace leadline::store
