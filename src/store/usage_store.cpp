// Usage rows are added to by upsert; the report is summed up from the rows of its hours.
#include "store/usage_store.hpp"

#include <algorithm>
#include <string_view>
#include <tuple>

#include "store/records/usage_report.hpp"

namespace leadline::store {

namespace {

// The rows a read sums: those whose `column` equals `id`.
struct Scope {
  std::string_view column;  // "key_id"
  const std::string& id;
};

Scope key_scope(const domain::ApiKeyId& key) {
  return {"key_id", key.value};
}

// Summed over the scope's keys per hour and endpoint. CASTs: PostgreSQL's SUM of a BIGINT is a
// NUMERIC.
std::vector<UsageRow> report_rows(sql::Connection& c, Scope scope, HourRange hours) {
  auto rows = c.query(
      "SELECT hour, endpoint, CAST(SUM(requests) AS BIGINT), CAST(SUM(errors) AS BIGINT), "
      "CAST(SUM(rate_limited) AS BIGINT) FROM key_usage_hours WHERE " +
          std::string(scope.column) + " = ? AND hour BETWEEN ? AND ? GROUP BY hour, endpoint",
      sql::Params().text(scope.id).int64(hours.first).int64(hours.last));
  std::vector<UsageRow> found;
  while (rows.next()) {
    found.push_back({rows.int64(0), rows.text(1), rows.int64(2), rows.int64(3), rows.int64(4)});
  }
  return found;
}

domain::UsageReport report_of(sql::Connection& c, Scope scope, domain::Timestamp now) {
  return summarize_usage(report_rows(c, scope, usage_report_hours(now)), now);
}

}  // namespace

void UsageStore::record(const std::vector<domain::UsageDelta>& deltas) {
  static const Operation op("record_usage");
  if (deltas.empty()) return;
  // Every flush touches its rows in one order, so two instances flushing at once cannot
  // deadlock on each other's rows.
  std::vector<const domain::UsageDelta*> ordered;
  for (const domain::UsageDelta& d : deltas) ordered.push_back(&d);
  std::sort(ordered.begin(), ordered.end(), [](const auto* a, const auto* b) {
    return std::tie(a->key_id.value, a->hour, a->endpoint) <
           std::tie(b->key_id.value, b->hour, b->endpoint);
  });
  runner_.write(op, [&](sql::Connection& c) {
    for (const domain::UsageDelta* d : ordered) {
      // The key's row gives the workspace; a deleted key gives no row, so its counts go.
      // CASTs: PostgreSQL cannot infer the type of a parameter in a SELECT list.
      c.execute(
          "INSERT INTO key_usage_hours (key_id, hour, endpoint, workspace_id, requests, errors, "
          "rate_limited, last_at) "
          "SELECT id, CAST(? AS BIGINT), CAST(? AS TEXT), workspace_id, CAST(? AS BIGINT), "
          "CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT) FROM api_keys WHERE id = ? "
          "ON CONFLICT (key_id, hour, endpoint) DO UPDATE SET "
          "requests = key_usage_hours.requests + excluded.requests, "
          "errors = key_usage_hours.errors + excluded.errors, "
          "rate_limited = key_usage_hours.rate_limited + excluded.rate_limited, "
          "last_at = CASE WHEN excluded.last_at > key_usage_hours.last_at "
          "THEN excluded.last_at ELSE key_usage_hours.last_at END",
          sql::Params()
              .int64(d->hour)
              .text(d->endpoint)
              .int64(d->requests)
              .int64(d->errors)
              .int64(d->rate_limited)
              .int64(d->last_at.unix_ms)
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
        return report_of(c, key_scope(id), now);
      });
}

}  // namespace leadline::store
