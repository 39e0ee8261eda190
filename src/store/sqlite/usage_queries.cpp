// Usage rows are per UTC day, so every report window is a closed range of day numbers.
#include "store/sqlite/usage_queries.hpp"

#include <algorithm>
#include <chrono>

namespace leadline::store::sqlite {

namespace {

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

bool key_exists(Connection& conn, const domain::ApiKeyId& id) {
  auto q = conn.query("SELECT 1 FROM api_keys WHERE id = ?");
  q.bind_text(id.value);
  return q.step();
}

}  // namespace

void add_usage(Connection& conn, const std::vector<UsageDelta>& deltas) {
  for (const UsageDelta& d : deltas) {
    auto q = conn.query(
        "INSERT INTO key_usage (key_id, day, endpoint, requests, errors, rate_limited) "
        "SELECT ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM api_keys WHERE id = ?) "
        "ON CONFLICT (key_id, day, endpoint) DO UPDATE SET "
        "requests = requests + excluded.requests, errors = errors + excluded.errors, "
        "rate_limited = rate_limited + excluded.rate_limited");
    q.bind_text(d.key_id.value)
        .bind_int(d.day)
        .bind_text(d.endpoint)
        .bind_int(d.requests)
        .bind_int(d.errors)
        .bind_int(d.rate_limited)
        .bind_text(d.key_id.value)
        .run();
  }
}

std::variant<UsageReport, NotFound> select_usage(Connection& conn, const domain::ApiKeyId& id,
                                                 domain::Timestamp now) {
  if (!key_exists(conn, id)) return NotFound{};
  const Windows w = windows_of(now);
  const DayRange span{std::min(w.week.first, w.month.first), std::max(w.week.last, w.month.last)};
  auto q = conn.query(
      "SELECT day, endpoint, requests, errors, rate_limited FROM key_usage "
      "WHERE key_id = ? AND day BETWEEN ? AND ?");
  q.bind_text(id.value).bind_int(span.first).bind_int(span.last);
  UsageReport report;
  std::int64_t month_errors = 0;
  while (q.step()) {
    const std::int64_t day = q.int64(0);
    const std::int64_t requests = q.int64(2);
    if (day == w.today) report.today += requests;
    if (w.week.contains(day)) report.this_week += requests;
    if (!w.month.contains(day)) continue;
    report.this_month += requests;
    report.by_endpoint[q.text(1)] += requests;
    month_errors += q.int64(3);
    report.rate_limited += q.int64(4);
  }
  if (report.this_month > 0) {
    report.error_rate = static_cast<double>(month_errors) / static_cast<double>(report.this_month);
  }
  return report;
}

}  // namespace leadline::store::sqlite
