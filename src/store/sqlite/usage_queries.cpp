// Usage rows are added to by upsert; the report is summed up from the rows of its days.
#include "store/sqlite/usage_queries.hpp"

#include "store/usage_report.hpp"

namespace leadline::store::sqlite {

namespace {

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
  const DayRange days = usage_days(now);
  auto q = conn.query(
      "SELECT day, endpoint, requests, errors, rate_limited FROM key_usage "
      "WHERE key_id = ? AND day BETWEEN ? AND ?");
  q.bind_text(id.value).bind_int(days.first).bind_int(days.last);
  std::vector<UsageRow> rows;
  while (q.step()) rows.push_back({q.int64(0), q.text(1), q.int64(2), q.int64(3), q.int64(4)});
  return summarize_usage(rows, now);
}

}  // namespace leadline::store::sqlite
