// One event row and one delivery row per subscribed, enabled endpoint, on the caller's write
// connection; the counter tells OperationRunner to wake the delivery workers after the commit.
// A delivery row is inserted here only, for events and test events alike.
#include "store/records/event_outbox.hpp"

#include <atomic>
#include <string>

#include "domain/uuid.hpp"
#include "domain/webhook_records.hpp"
#include "record_json/event_shapes.hpp"
#include "store/records/json_string_array.hpp"

namespace leadline::store {

namespace {

std::atomic<std::uint64_t> recorded{0};

}  // namespace

void record_event(sql::Connection& conn, const domain::WorkspaceId& ws, std::string_view type,
                  std::string_view data, std::string_view previous_attributes,
                  domain::Timestamp now) {
  const std::string id = domain::new_uuid_v7(now.unix_ms);
  conn.execute_later(
      "INSERT INTO events (workspace_id, id, type, created_at, body) VALUES (?, ?, ?, ?, ?)",
      sql::Params()
          .id(ws)
          .text(id)
          .text(type)
          .int64(now.unix_ms)
          .text(record_json::event_body(id, type, now, data, previous_attributes)));

  // Most workspaces have no endpoint: one indexed probe, no deliveries.
  std::vector<std::string> subscribed;
  {
    auto rows = conn.query("SELECT id, events FROM webhooks WHERE workspace_id = ? AND enabled = 1",
                           sql::Params().id(ws));
    while (rows.next()) {
      if (domain::subscribes_to(decode_string_array(rows.text_view(1)), type)) {
        subscribed.push_back(rows.text(0));
      }
    }
  }
  for (const auto& webhook : subscribed) record_delivery(conn, ws, webhook, id, type, {}, now);
}

std::string record_delivery(sql::Connection& conn, const domain::WorkspaceId& ws,
                            std::string_view webhook, std::string_view event_id,
                            std::string_view type, std::optional<std::string_view> body,
                            domain::Timestamp now) {
  std::string id = domain::new_uuid_v7(now.unix_ms);
  sql::Params params;
  params.id(ws).text(id).text(webhook).text(event_id).text(type);
  if (body) {
    params.text(*body);
  } else {
    params.null();
  }
  conn.execute_later(
      "INSERT INTO webhook_deliveries (workspace_id, id, webhook_id, event_id, event_type, body, "
      "status, attempt_count, next_attempt_at, created_at) "
      "VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?)",
      params.int64(now.unix_ms).int64(now.unix_ms));
  note_deliveries_recorded();
  return id;
}

std::uint64_t deliveries_recorded() {
  return recorded.load(std::memory_order_relaxed);
}

void note_deliveries_recorded() {
  recorded.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace leadline::store
