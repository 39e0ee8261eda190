// The delivery log's reads, redelivery and test events, and the claim/report cycle of the
// delivery workers; the claim skips rows another instance holds (Dialect::claim_rows) and leases
// what it takes.
#include "store/delivery_store.hpp"

#include "domain/event_types.hpp"
#include "domain/uuid.hpp"
#include "record_json/event_shapes.hpp"
#include "store/records/event_outbox.hpp"
#include "store/records/stored_enums.hpp"
#include "store/sql/list_page.hpp"

namespace leadline::store {

namespace {

constexpr std::string_view kDeliveryColumns =
    "d.id, d.webhook_id, d.event_id, d.event_type, d.status, d.attempt_count, "
    "d.next_attempt_at, d.last_attempt_at, d.last_status_code, d.last_error, d.created_at";

std::optional<domain::Timestamp> opt_timestamp(const sql::Rows& row, int col) {
  if (row.is_null(col)) return std::nullopt;
  return domain::Timestamp{row.int64(col)};
}

std::optional<int> opt_int(const sql::Rows& row, int col) {
  if (row.is_null(col)) return std::nullopt;
  return static_cast<int>(row.int64(col));
}

sql::Value nullable(std::optional<int> v) {
  if (!v) return {};
  return static_cast<std::int64_t>(v.value_or(0));
}

domain::Delivery read_delivery(const sql::Rows& row) {
  domain::Delivery d;
  d.id.value = row.text(0);
  d.webhook_id.value = row.text(1);
  d.event_id.value = row.text(2);
  d.event_type = row.text(3);
  d.status = stored_enum(row.text_view(4), &domain::parse_delivery_status, "delivery status");
  d.attempt_count = static_cast<int>(row.int64(5));
  d.next_attempt_at = opt_timestamp(row, 6);
  d.last_attempt_at = opt_timestamp(row, 7);
  d.last_status_code = opt_int(row, 8);
  d.last_error = row.opt_text(9);
  d.created_at = {row.int64(10)};
  return d;
}

std::optional<domain::Delivery> select_delivery(sql::Connection& conn,
                                                const domain::WorkspaceId& ws,
                                                const domain::DeliveryId& id) {
  static const std::string sql = "SELECT " + std::string(kDeliveryColumns) +
                                 " FROM webhook_deliveries d WHERE d.workspace_id = ? AND d.id = ?";
  auto row = conn.query(sql, sql::Params().id(ws).id(id));
  if (!row.next()) return std::nullopt;
  return read_delivery(row);
}

// Whether the endpoint exists in `ws`, and then whether it is enabled.
std::optional<bool> endpoint_enabled(sql::Connection& conn, const domain::WorkspaceId& ws,
                                     const domain::WebhookId& webhook) {
  auto row = conn.query("SELECT enabled FROM webhooks WHERE workspace_id = ? AND id = ?",
                        sql::Params().id(ws).id(webhook));
  if (!row.next()) return std::nullopt;
  return row.int64(0) != 0;
}

}  // namespace

Page<domain::Delivery> DeliveryStore::list(const domain::WorkspaceId& ws,
                                           const DeliveryListQuery& query) {
  static const Operation op("list_webhook_deliveries");
  static const std::vector<sql::SortKey> keys{{"d.created_at", false}};
  return runner_.snapshot(op, [&](sql::Connection& c) {
    auto sql = sql::ListSql::of_workspace(kDeliveryColumns, "webhook_deliveries d", "d", ws.value);
    if (query.webhook) sql.filter("d.webhook_id = ?", query.webhook->value);
    if (query.event) sql.filter("d.event_id = ?", query.event->value);
    if (query.status) sql.filter("d.status = ?", std::string(domain::to_string(*query.status)));
    sql.sort_by(keys, SortDirection::kDesc);
    return sql::run_list<domain::Delivery>(c, sql, query.page, read_delivery);
  });
}

std::optional<domain::Delivery> DeliveryStore::get(const domain::WorkspaceId& ws,
                                                   const domain::DeliveryId& id) {
  static const Operation op("get_webhook_delivery");
  return runner_.snapshot(op, [&](sql::Connection& c) -> std::optional<domain::Delivery> {
    auto delivery = select_delivery(c, ws, id);
    if (!delivery) return std::nullopt;
    auto rows = c.query(
        "SELECT attempted_at, status_code, duration_ms, error, response_excerpt "
        "FROM webhook_attempts WHERE delivery_id = ? ORDER BY n",
        sql::Params().id(id));
    while (rows.next()) {
      delivery->attempts.push_back({domain::Timestamp{rows.int64(0)}, opt_int(rows, 1),
                                    rows.int64(2), rows.opt_text(3), rows.text(4)});
    }
    return delivery;
  });
}

std::variant<domain::Delivery, NotFound, EndpointDisabled> DeliveryStore::retry(
    const domain::WorkspaceId& ws, const domain::DeliveryId& id) {
  static const Operation op("retry_webhook_delivery");
  return runner_.write(
      op, [&](sql::Connection& c) -> std::variant<domain::Delivery, NotFound, EndpointDisabled> {
        auto delivery = select_delivery(c, ws, id);
        if (!delivery) return NotFound{};
        // A deleted endpoint's kept deliveries cannot be sent either.
        if (!endpoint_enabled(c, ws, delivery->webhook_id).value_or(false)) {
          return EndpointDisabled{};
        }
        const domain::Timestamp now = runner_.now();
        c.execute(
            "UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?, "
            "lease_until = NULL WHERE workspace_id = ? AND id = ?",
            sql::Params().int64(now.unix_ms).id(ws).id(id));
        delivery->status = domain::DeliveryStatus::kPending;
        delivery->next_attempt_at = now;
        // A redelivery records deliveries to attempt, as an event does: wake the workers.
        note_deliveries_recorded();
        return *delivery;
      });
}

std::variant<domain::Delivery, NotFound, EndpointDisabled> DeliveryStore::send_test_event(
    const domain::WorkspaceId& ws, const domain::WebhookId& webhook) {
  static const Operation op("send_webhook_test_event");
  return runner_.write(
      op, [&](sql::Connection& c) -> std::variant<domain::Delivery, NotFound, EndpointDisabled> {
        const auto enabled = endpoint_enabled(c, ws, webhook);
        if (!enabled) return NotFound{};
        if (!*enabled) return EndpointDisabled{};
        const domain::Timestamp now = runner_.now();
        const std::string event_id = domain::new_uuid_v7(now.unix_ms);
        // The envelope of every event, so receivers verify and parse it like any delivery.
        const std::string body = record_json::event_body(event_id, domain::kWebhookTestEventType,
                                                         now, "{}", std::string_view{});
        const std::string id = record_delivery(c, ws, webhook.value, event_id,
                                               domain::kWebhookTestEventType, body, now);
        return *select_delivery(c, ws, domain::DeliveryId{id});
      });
}

namespace {

// Due, unclaimed deliveries of enabled endpoints whose event is still retained. A test
// delivery carries its body (d.body) and has no event row, hence the outer join.
constexpr std::string_view kDueDeliveries =
    "FROM webhook_deliveries d "
    "JOIN webhooks w ON w.workspace_id = d.workspace_id AND w.id = d.webhook_id "
    "LEFT JOIN events e ON e.id = d.event_id "
    "WHERE d.status = 'pending' AND d.next_attempt_at <= ? AND w.enabled = 1 "
    "AND (d.lease_until IS NULL OR d.lease_until <= ?) "
    "AND (d.body IS NOT NULL OR e.id IS NOT NULL) ";

}  // namespace

bool DeliveryStore::any_due() {
  static const Operation op("find_due_webhook_deliveries");
  static const std::string sql = "SELECT 1 " + std::string(kDueDeliveries) + "LIMIT 1";
  return runner_.read(op, [&](sql::Connection& c) {
    const std::int64_t now = runner_.now().unix_ms;
    return c.query(sql, sql::Params().int64(now).int64(now)).next();
  });
}

std::vector<ClaimedDelivery> DeliveryStore::claim(
    int limit, domain::Timestamp lease_until, const std::function<bool(std::string_view)>& admit) {
  static const Operation op("claim_webhook_deliveries");
  return runner_.write(op, [&](sql::Connection& c) {
    const domain::Timestamp now = runner_.now();
    // Candidates beyond `limit` leave room for admit() to pass over busy endpoints.
    const std::string sql =
        "SELECT d.workspace_id, d.id, d.webhook_id, w.url, COALESCE(d.body, e.body), d.event_id, "
        "w.secret, "
        "w.previous_secret, w.previous_secret_until, COALESCE(w.last_success_at, w.created_at), "
        "d.attempt_count " +
        std::string(kDueDeliveries) + "ORDER BY d.next_attempt_at LIMIT ?" +
        c.dialect().claim_rows("d");
    std::vector<ClaimedDelivery> out;
    {
      auto rows =
          c.query(sql, sql::Params().int64(now.unix_ms).int64(now.unix_ms).int64(limit * 4L));
      while (rows.next() && static_cast<int>(out.size()) < limit) {
        if (!admit(rows.text_view(2))) continue;
        ClaimedDelivery d;
        d.workspace.value = rows.text(0);
        d.id.value = rows.text(1);
        d.webhook.value = rows.text(2);
        d.url = rows.text(3);
        d.body = rows.text(4);
        d.event_id = rows.text(5);
        d.secrets.push_back(rows.text(6));
        if (!rows.is_null(7) && !rows.is_null(8) && rows.int64(8) > now.unix_ms) {
          d.secrets.push_back(rows.text(7));
        }
        d.healthy_since = {rows.int64(9)};
        d.attempts_before = static_cast<int>(rows.int64(10));
        out.push_back(std::move(d));
      }
    }
    for (const auto& d : out) {
      c.execute("UPDATE webhook_deliveries SET lease_until = ? WHERE workspace_id = ? AND id = ?",
                sql::Params().int64(lease_until.unix_ms).id(d.workspace).id(d.id));
    }
    return out;
  });
}

namespace {

void write_report(sql::Connection& c, const AttemptReport& r) {
  const auto& a = r.attempt;
  const sql::Value code = nullable(a.status_code);
  std::int64_t n = 0;
  {
    auto rows = c.query(
        "UPDATE webhook_deliveries SET status = ?, attempt_count = attempt_count + 1, "
        "next_attempt_at = ?, last_attempt_at = ?, last_status_code = ?, last_error = ?, "
        "lease_until = NULL WHERE workspace_id = ? AND id = ? RETURNING attempt_count",
        sql::Params()
            .text(domain::to_string(r.status))
            .value(r.next_attempt_at ? sql::Value(r.next_attempt_at->unix_ms) : sql::Value())
            .int64(a.attempted_at.unix_ms)
            .value(code)
            .opt_text(a.error)
            .id(r.workspace)
            .id(r.id));
    // Gone meanwhile: its endpoint was deleted or its event expired.
    if (!rows.next()) return;
    n = rows.int64(0);
  }
  c.execute(
      "INSERT INTO webhook_attempts (delivery_id, n, attempted_at, status_code, duration_ms, "
      "error, response_excerpt) VALUES (?, ?, ?, ?, ?, ?, ?)",
      sql::Params()
          .id(r.id)
          .int64(n)
          .int64(a.attempted_at.unix_ms)
          .value(code)
          .int64(a.duration_ms)
          .opt_text(a.error)
          .text(a.response_excerpt));
  if (r.status == domain::DeliveryStatus::kSucceeded) {
    // Only the disabling rule reads it, in days: a minute's precision spares the endpoint's
    // row a write per delivery.
    c.execute(
        "UPDATE webhooks SET last_success_at = ? WHERE workspace_id = ? AND id = ? AND "
        "(last_success_at IS NULL OR last_success_at < ?)",
        sql::Params()
            .int64(a.attempted_at.unix_ms)
            .id(r.workspace)
            .id(r.webhook)
            .int64(a.attempted_at.unix_ms - 60'000));
  }
  if (r.disable_endpoint) {
    c.execute(
        "UPDATE webhooks SET enabled = 0, disabled_reason = ?, updated_at = ? "
        "WHERE workspace_id = ? AND id = ? AND enabled = 1",
        sql::Params()
            .text(*r.disable_endpoint)
            .int64(a.attempted_at.unix_ms)
            .id(r.workspace)
            .id(r.webhook));
  }
}

}  // namespace

void DeliveryStore::release(const std::vector<ClaimedDelivery>& claims) {
  static const Operation op("release_webhook_deliveries");
  runner_.write(op, [&](sql::Connection& c) {
    for (const ClaimedDelivery& d : claims) {
      c.execute(
          "UPDATE webhook_deliveries SET lease_until = NULL WHERE workspace_id = ? AND id = ?",
          sql::Params().id(d.workspace).id(d.id));
    }
  });
}

void DeliveryStore::report(const std::vector<AttemptReport>& reports) {
  static const Operation op("report_webhook_attempts");
  runner_.write(op, [&](sql::Connection& c) {
    for (const AttemptReport& r : reports) write_report(c, r);
  });
}

}  // namespace leadline::store
