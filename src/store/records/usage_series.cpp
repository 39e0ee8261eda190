// Buckets are indexed from the oldest, so each total lands by subtraction; stored errors include
// the 429s, which the series shows apart.
#include "store/records/usage_series.hpp"

namespace leadline::store {

namespace {

constexpr auto kHours = static_cast<std::int64_t>(domain::UsageSeries::kHours);
constexpr auto kDays = static_cast<std::int64_t>(domain::UsageSeries::kDays);
constexpr std::int64_t kMsPerDay = domain::kHoursPerDay * domain::kMsPerHour;

struct Windows {
  std::int64_t first_hour;
  std::int64_t this_hour;
  std::int64_t first_day;
  std::int64_t today;
};

Windows windows_of(domain::Timestamp now) {
  const std::int64_t this_hour = domain::utc_hour(now);
  const std::int64_t today = domain::utc_day_of_hour(this_hour);
  return {this_hour - (kHours - 1), this_hour, today - (kDays - 1), today};
}

std::vector<domain::UsageBucket> empty_buckets(std::int64_t first, std::int64_t count,
                                               std::int64_t ms_per_bucket) {
  std::vector<domain::UsageBucket> buckets(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i) {
    buckets[static_cast<std::size_t>(i)].start_ms = (first + i) * ms_per_bucket;
  }
  return buckets;
}

void add(domain::UsageBucket& bucket, const UsageHourTotal& total) {
  bucket.success += total.requests - total.errors;
  bucket.error += total.errors - total.rate_limited;
  bucket.rate_limited += total.rate_limited;
}

}  // namespace

HourRange usage_series_hours(domain::Timestamp now) {
  const Windows w = windows_of(now);
  return hours_of_days(w.first_day, w.today);
}

domain::UsageSeries bucket_usage(const std::vector<UsageHourTotal>& totals, domain::Timestamp now) {
  const Windows w = windows_of(now);
  domain::UsageSeries series{empty_buckets(w.first_hour, kHours, domain::kMsPerHour),
                             empty_buckets(w.first_day, kDays, kMsPerDay)};
  for (const UsageHourTotal& total : totals) {
    if (total.hour >= w.first_hour && total.hour <= w.this_hour) {
      add(series.hourly[static_cast<std::size_t>(total.hour - w.first_hour)], total);
    }
    const std::int64_t day = domain::utc_day_of_hour(total.hour);
    if (day >= w.first_day && day <= w.today) {
      add(series.daily[static_cast<std::size_t>(day - w.first_day)], total);
    }
  }
  return series;
}

}  // namespace leadline::store
