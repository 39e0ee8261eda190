// Usage rows are added to by upsert; the report and the series are summed up from the rows of
// their hours, for one key (through the primary key) or a whole workspace (through
// key_usage_hours_by_workspace).
#include "store/usage_store.hpp"

#include <algorithm>
#include <string_view>
#include <tuple>

#include "store/records/usage_report.hpp"
#include "store/records/usage_series.hpp"

namespace leadline::store {

namespace {

// The rows a read sums: those whose `column` equals `id`.
struct Scope {
  std::string_view column;  // "key_id" or "workspace_id"
  const std::string& id;
};

Scope key_scope(const domain::ApiKeyId& key) {
  return {"key_id", key.value};
}

Scope workspace_scope(const domain::WorkspaceId& ws) {
  return {"workspace_id", ws.value};
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

// Summed over the scope's keys and the endpoints per hour.
std::vector<UsageHourTotal> hour_totals(sql::Connection& c, Scope scope, HourRange hours) {
  auto rows = c.query(
      "SELECT hour, CAST(SUM(requests) AS BIGINT), CAST(SUM(errors) AS BIGINT), "
      "CAST(SUM(rate_limited) AS BIGINT) FROM key_usage_hours WHERE " +
          std::string(scope.column) + " = ? AND hour BETWEEN ? AND ? GROUP BY hour",
      sql::Params().text(scope.id).int64(hours.first).int64(hours.last));
  std::vector<UsageHourTotal> found;
  while (rows.next()) {
    found.push_back({rows.int64(0), rows.int64(1), rows.int64(2), rows.int64(3)});
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

domain::UsageReport UsageStore::workspace_report(const domain::WorkspaceId& ws) {
  static const Operation op("workspace_usage");
  const domain::Timestamp now = runner_.now();
  return runner_.read(op,
                      [&](sql::Connection& c) { return report_of(c, workspace_scope(ws), now); });
}

std::variant<domain::UsageSeries, NotFound> UsageStore::series(
    const domain::WorkspaceId& ws, const std::optional<domain::ApiKeyId>& key) {
  static const Operation op("usage_series");
  const domain::Timestamp now = runner_.now();
  return runner_.snapshot(
      op, [&](sql::Connection& c) -> std::variant<domain::UsageSeries, NotFound> {
        if (key && !c.query("SELECT 1 FROM api_keys WHERE id = ? AND workspace_id = ?",
                            sql::Params().id(*key).id(ws))
                        .next()) {
          return NotFound{};
        }
        const Scope scope = key ? key_scope(*key) : workspace_scope(ws);
        return bucket_usage(hour_totals(c, scope, usage_series_hours(now)), now);
      });
}

std::map<std::string, domain::Timestamp> UsageStore::last_used(const domain::WorkspaceId& ws) {
  static const Operation op("keys_last_used");
  return runner_.read(op, [&](sql::Connection& c) {
    // A row's last_at lies in its own hour, so a key's latest request is in its latest hour:
    // two probes of the primary key per key instead of every row the workspace retains.
    auto rows = c.query(
        "SELECT k.id, (SELECT MAX(u.last_at) FROM key_usage_hours u WHERE u.key_id = k.id "
        "AND u.hour = (SELECT MAX(h.hour) FROM key_usage_hours h WHERE h.key_id = k.id)) "
        "FROM api_keys k WHERE k.workspace_id = ?",
        sql::Params().id(ws));
    std::map<std::string, domain::Timestamp> found;
    while (rows.next()) {
      if (!rows.is_null(1)) found.emplace(rows.text(0), domain::Timestamp{rows.int64(1)});
    }
    return found;
  });
}

std::int64_t UsageStore::purge_older_than(domain::Timestamp cutoff, int batch) {
  static const Operation op("purge_usage");
  // Whole hours only: the hour the cutoff falls in holds counts newer than the cutoff.
  return runner_.write(op, [&](sql::Connection& c) {
    return c.execute(
        "DELETE FROM key_usage_hours WHERE (key_id, hour, endpoint) IN (SELECT key_id, hour, "
        "endpoint FROM key_usage_hours WHERE hour < ? ORDER BY hour LIMIT ?)",
        sql::Params().int64(domain::utc_hour(cutoff)).int64(batch));
  });
}

}  // namespace leadline::store
