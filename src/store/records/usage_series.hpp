// Turns stored usage (one total per UTC hour, summed over endpoints and the keys asked about)
// into the dashboard's series: the last 48 hours and the last 30 days, by outcome.
#pragma once

#include <cstdint>
#include <vector>

#include "domain/timestamp.hpp"
#include "domain/usage.hpp"
#include "store/records/hour_range.hpp"

namespace leadline::store {

struct UsageHourTotal {
  std::int64_t hour = 0;  // hours since the Unix epoch, UTC
  std::int64_t requests = 0;
  std::int64_t errors = 0;  // 429s included, as stored
  std::int64_t rate_limited = 0;
};

// Every hour the series for `now` reads: all of its 30 days, so that today's day bucket holds
// what the report counts as today even when another instance's clock ran ahead.
HourRange usage_series_hours(domain::Timestamp now);

// Zero-filled: one bucket for every hour and day of the windows ending with `now`'s hour and
// day; totals outside them are left out.
domain::UsageSeries bucket_usage(const std::vector<UsageHourTotal>& totals, domain::Timestamp now);

}  // namespace leadline::store
