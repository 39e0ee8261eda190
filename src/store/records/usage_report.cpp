// Every report window is whole UTC days, so a row's hour only matters through its day.
#include "store/records/usage_report.hpp"

#include <algorithm>
#include <chrono>

namespace leadline::store {

namespace {

// Closed range of day numbers (days since the Unix epoch, UTC).
struct DayRange {
  std::int64_t first;
  std::int64_t last;
  bool contains(std::int64_t day) const { return day >= first && day <= last; }
};

struct Windows {
  std::int64_t today;
  DayRange week;
  DayRange month;
};

Windows windows_of(domain::Timestamp now) {
  using namespace std::chrono;
  const sys_days today = floor<days>(sys_time<milliseconds>(milliseconds(now.unix_ms)));
  const auto day_number = [](sys_days d) {
    return static_cast<std::int64_t>(d.time_since_epoch().count());
  };
  const sys_days monday = today - days(weekday(today).iso_encoding() - 1);
  const year_month_day ymd(today);
  const sys_days month_first = ymd.year() / ymd.month() / 1;
  const sys_days month_last = ymd.year() / ymd.month() / last;
  return {day_number(today),
          {day_number(monday), day_number(monday) + 6},
          {day_number(month_first), day_number(month_last)}};
}

}  // namespace

HourRange usage_report_hours(domain::Timestamp now) {
  const Windows w = windows_of(now);
  return hours_of_days(std::min(w.week.first, w.month.first), std::max(w.week.last, w.month.last));
}

domain::UsageReport summarize_usage(const std::vector<UsageRow>& rows, domain::Timestamp now) {
  const Windows w = windows_of(now);
  domain::UsageReport report;
  std::int64_t month_errors = 0;
  for (const UsageRow& row : rows) {
    const std::int64_t day = domain::utc_day_of_hour(row.hour);
    if (day == w.today) report.today += row.requests;
    if (w.week.contains(day)) report.this_week += row.requests;
    if (!w.month.contains(day)) continue;
    report.this_month += row.requests;
    report.by_endpoint[row.endpoint] += row.requests;
    month_errors += row.errors;
    report.rate_limited += row.rate_limited;
  }
  if (report.this_month > 0) {
    report.error_rate = static_cast<double>(month_errors) / static_cast<double>(report.this_month);
  }
  return report;
}

}  // namespace leadline::store
