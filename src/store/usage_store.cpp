// Usage rows are added to by upsert; the report is summed up from the rows of its days.
#include "store/usage_store.hpp"

#include <algorithm>
#include <tuple>

#include "store/records/usage_report.hpp"

namespace leadline::store {

void UsageStore::record(const std::vector<domain::UsageDelta>& deltas) {
  static const Operation op("record_usage");
  if (deltas.empty()) return;
  // Every flush touches its rows in one order, so two instances flushing at once cannot
  // deadlock on each other's rows.
  std::vector<const domain::UsageDelta*> ordered;
  for (const domain::UsageDelta& d : deltas) ordered.push_back(&d);
  std::sort(ordered.begin(), ordered.end(), [](const auto* a, const auto* b) {
    return std::tie(a->key_id.value, a->day, a->endpoint) <
           std::tie(b->key_id.value, b->day, b->endpoint);
  });
  runner_.write(op, [&](sql::Connection& c) {
    for (const domain::UsageDelta* d : ordered) {
      // CASTs: PostgreSQL cannot infer the type of a parameter in a SELECT list.
      c.execute(
          "INSERT INTO key_usage (key_id, day, endpoint, requests, errors, rate_limited) "
          "SELECT CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS BIGINT), "
          "CAST(? AS BIGINT), CAST(? AS BIGINT) "
          "WHERE EXISTS (SELECT 1 FROM api_keys WHERE id = ?) "
          "ON CONFLICT (key_id, day, endpoint) DO UPDATE SET "
          "requests = key_usage.requests + excluded.requests, "
          "errors = key_usage.errors + excluded.errors, "
          "rate_limited = key_usage.rate_limited + excluded.rate_limited",
          sql::Params()
              .id(d->key_id)
              .int64(d->day)
              .text(d->endpoint)
              .int64(d->requests)
              .int64(d->errors)
              .int64(d->rate_limited)
              .id(d->key_id));
    }
  });
}

std::variant<domain::UsageReport, NotFound> UsageStore::report(const domain::ApiKeyId& id) {
  static const Operation op("key_usage");
  const domain::Timestamp now = runner_.now();
  return runner_.snapshot(
      op, [&](sql::Connection& c) -> std::variant<domain::UsageReport, NotFound> {
        if (!c.query("SELECT 1 FROM api_keys WHERE id = ?", sql::Params().id(id)).next()) {
          return NotFound{};
        }
        const DayRange days = usage_days(now);
        auto rows = c.query(
            "SELECT day, endpoint, requests, errors, rate_limited FROM key_usage "
            "WHERE key_id = ? AND day BETWEEN ? AND ?",
            sql::Params().id(id).int64(days.first).int64(days.last));
        std::vector<UsageRow> found;
        while (rows.next()) {
          found.push_back(
              {rows.int64(0), rows.text(1), rows.int64(2), rows.int64(3), rows.int64(4)});
        }
        return summarize_usage(found, now);
      });
}

}  // namespace leadline::store
