// Turns stored usage rows (one per UTC hour and endpoint, summed over the keys asked about) into
// the usage report; the backends only fetch the rows of the hours the report can cover.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "domain/timestamp.hpp"
#include "domain/usage.hpp"
#include "store/records/hour_range.hpp"

namespace leadline::store {

struct UsageRow {
  std::int64_t hour = 0;  // hours since the Unix epoch, UTC
  std::string endpoint;
  std::int64_t requests = 0;
  std::int64_t errors = 0;
  std::int64_t rate_limited = 0;
};

// Every hour that the report for `now` looks at: the days of its ISO week and calendar month.
HourRange usage_report_hours(domain::Timestamp now);

// today: the UTC day of `now`; this_week: its ISO week (Monday to Sunday); this_month: its UTC
// calendar month, which also bounds by_endpoint, error_rate and rate_limited. A row counts in
// the day its hour falls in.
domain::UsageReport summarize_usage(const std::vector<UsageRow>& rows, domain::Timestamp now);

}  // namespace leadline::store
