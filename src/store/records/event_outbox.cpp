// One event row and one delivery row per subscribed, enabled endpoint, on the caller's write
// connection; the counter tells OperationRunner to wake the delivery workers after the commit.
// A delivery row is inserted here only, for events and test events alike.
#include "store/records/event_outbox.hpp"

#include <atomic>
#include <string>
#include <utility>
#include <vector>

#include "domain/uuid.hpp"
#include "domain/webhook_records.hpp"
#include "record_json/event_shapes.hpp"
#include "store/records/json_string_array.hpp"
#include "store/sql/column_list.hpp"

namespace leadline::store {

namespace {

std::atomic<std::uint64_t> recorded{0};

}  // namespace

namespace {

constexpr std::string_view kEventColumns = "workspace_id, id, type, created_at, body";
constexpr std::string_view kDeliveryColumns =
    "workspace_id, id, webhook_id, event_id, event_type, body, status, attempt_count, "
    "next_attempt_at, created_at";

// The workspace's enabled endpoints: each one's id and the event types it subscribes to. Most
// workspaces have none: one indexed probe.
std::vector<std::pair<std::string, std::vector<std::string>>> enabled_webhooks(
    sql::Connection& conn, const domain::WorkspaceId& ws) {
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  auto rows = conn.query("SELECT id, events FROM webhooks WHERE workspace_id = ? AND enabled = 1",
                         sql::Params().id(ws));
  while (rows.next()) out.emplace_back(rows.text(0), decode_string_array(rows.text_view(1)));
  return out;
}

sql::Params event_values(const domain::WorkspaceId& ws, const std::string& id,
                         std::string_view type, std::string_view data,
                         std::string_view previous_attributes, domain::Timestamp now) {
  return std::move(sql::Params()
                       .id(ws)
                       .text(id)
                       .text(type)
                       .int64(now.unix_ms)
                       .text(record_json::event_body(id, type, now, data, previous_attributes)));
}

// A pending delivery, due at once.
sql::Params delivery_values(const domain::WorkspaceId& ws, const std::string& id,
                            std::string_view webhook, std::string_view event_id,
                            std::string_view type, std::optional<std::string_view> body,
                            domain::Timestamp now) {
  sql::Params params;
  params.id(ws).text(id).text(webhook).text(event_id).text(type);
  if (body) {
    params.text(*body);
  } else {
    params.null();
  }
  return std::move(params.text("pending").int64(0).int64(now.unix_ms).int64(now.unix_ms));
}

std::string insert_sql(std::string_view table, std::string_view columns) {
  std::string sql = "INSERT INTO ";
  sql.append(table).append(" (").append(columns).append(") VALUES (");
  return sql.append(sql::placeholders_for(columns)).append(")");
}

}  // namespace

PreparedEvent prepare_event(const domain::WorkspaceId& ws, std::string_view type,
                            std::string_view data, std::string_view previous_attributes,
                            domain::Timestamp now) {
  PreparedEvent event{.id = domain::new_uuid_v7(now.unix_ms), .type = type, .at = now, .row = {}};
  event.row = event_values(ws, event.id, type, data, previous_attributes, now);
  return event;
}

void record_event(sql::Connection& conn, const domain::WorkspaceId& ws,
                  const PreparedEvent& event) {
  static const std::string sql = insert_sql("events", kEventColumns);
  conn.execute_later(sql, event.row);
  for (const auto& [webhook, events] : enabled_webhooks(conn, ws)) {
    if (domain::subscribes_to(events, event.type)) {
      record_delivery(conn, ws, webhook, event.id, event.type, {}, event.at);
    }
  }
}

void record_event(sql::Connection& conn, const domain::WorkspaceId& ws, std::string_view type,
                  std::string_view data, std::string_view previous_attributes,
                  domain::Timestamp now) {
  record_event(conn, ws, prepare_event(ws, type, data, previous_attributes, now));
}

std::string record_delivery(sql::Connection& conn, const domain::WorkspaceId& ws,
                            std::string_view webhook, std::string_view event_id,
                            std::string_view type, std::optional<std::string_view> body,
                            domain::Timestamp now) {
  static const std::string sql = insert_sql("webhook_deliveries", kDeliveryColumns);
  std::string id = domain::new_uuid_v7(now.unix_ms);
  conn.execute_later(sql, delivery_values(ws, id, webhook, event_id, type, body, now));
  note_deliveries_recorded();
  return id;
}

EventRows::EventRows(sql::Connection& conn, const domain::WorkspaceId& ws)
    : ws_(ws), webhooks_(enabled_webhooks(conn, ws)) {}

void EventRows::add(std::string_view type, std::string_view data, domain::Timestamp now) {
  const std::string id = domain::new_uuid_v7(now.unix_ms);
  events_.push_back(event_values(ws_, id, type, data, {}, now));
  for (const auto& [webhook, events] : webhooks_) {
    if (!domain::subscribes_to(events, type)) continue;
    deliveries_.push_back(
        delivery_values(ws_, domain::new_uuid_v7(now.unix_ms), webhook, id, type, {}, now));
  }
}

void EventRows::flush(sql::Connection& conn) {
  conn.insert_rows("events", kEventColumns, events_);
  conn.insert_rows("webhook_deliveries", kDeliveryColumns, deliveries_);
  if (!deliveries_.empty()) note_deliveries_recorded();
  events_.clear();
  deliveries_.clear();
}

std::uint64_t deliveries_recorded() {
  return recorded.load(std::memory_order_relaxed);
}

void note_deliveries_recorded() {
  recorded.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace leadline::store
