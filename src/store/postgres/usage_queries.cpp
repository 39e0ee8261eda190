// Usage rows are added to by upsert; the report is summed up from the rows of its days.
#include "store/postgres/usage_queries.hpp"

#include <algorithm>
#include <tuple>

#include "store/usage_report.hpp"

namespace leadline::store::postgres {

void add_usage(Connection& conn, const std::vector<UsageDelta>& deltas) {
  // Every flush locks its rows in one order, so two instances flushing at once cannot
  // deadlock on each other's rows.
  std::vector<const UsageDelta*> ordered;
  for (const UsageDelta& d : deltas) ordered.push_back(&d);
  std::sort(ordered.begin(), ordered.end(), [](const UsageDelta* a, const UsageDelta* b) {
    return std::tie(a->key_id.value, a->day, a->endpoint) <
           std::tie(b->key_id.value, b->day, b->endpoint);
  });
  for (const UsageDelta* d : ordered) {
    conn.query(
        "INSERT INTO key_usage (key_id, day, endpoint, requests, errors, rate_limited) "
        "SELECT $1::text, $2::bigint, $3::text, $4::bigint, $5::bigint, $6::bigint "
        "WHERE EXISTS (SELECT 1 FROM api_keys WHERE id = $1::text) "
        "ON CONFLICT (key_id, day, endpoint) DO UPDATE SET "
        "requests = key_usage.requests + EXCLUDED.requests, "
        "errors = key_usage.errors + EXCLUDED.errors, "
        "rate_limited = key_usage.rate_limited + EXCLUDED.rate_limited",
        Params()
            .text(d->key_id.value)
            .int64(d->day)
            .text(d->endpoint)
            .int64(d->requests)
            .int64(d->errors)
            .int64(d->rate_limited));
  }
}

std::variant<UsageReport, NotFound> select_usage(Connection& conn, const domain::ApiKeyId& id,
                                                 domain::Timestamp now) {
  if (conn.query("SELECT 1 FROM api_keys WHERE id = $1", Params().text(id.value)).rows() == 0) {
    return NotFound{};
  }
  const DayRange days = usage_days(now);
  const Result r = conn.query(
      "SELECT day, endpoint, requests, errors, rate_limited FROM key_usage "
      "WHERE key_id = $1 AND day BETWEEN $2 AND $3",
      Params().text(id.value).int64(days.first).int64(days.last));
  std::vector<UsageRow> rows;
  for (int i = 0; i < r.rows(); ++i) {
    const Row row(r, i);
    rows.push_back({row.int64(0), row.text(1), row.int64(2), row.int64(3), row.int64(4)});
  }
  return summarize_usage(rows, now);
}

}  // namespace leadline::store::postgres
