// The feed is ordered by (tx, seq) and, on PostgreSQL, held back to settled transactions by the
// dialect's feed_settled(); both backends run the same statements otherwise.
#include "store/event_store.hpp"

#include <utility>
#include <vector>

#include "store/sql/list_page.hpp"

namespace leadline::store {

namespace {

const std::vector<sql::SortKey>& feed_keys() {
  static const std::vector<sql::SortKey> keys{{"e.tx", false}, {"e.seq", false}};
  return keys;
}

StoredEvent read_event(const sql::Rows& row) {
  return {row.text(0), row.text(1)};
}

}  // namespace

std::variant<Page<StoredEvent>, UnknownAfterEvent> EventStore::list(const domain::WorkspaceId& ws,
                                                                    const EventListQuery& query) {
  static const Operation op("list_events");
  return runner_.snapshot(
      op, [&](sql::Connection& c) -> std::variant<Page<StoredEvent>, UnknownAfterEvent> {
        auto sql = sql::ListSql::of_workspace("e.id, e.body", "events e", "e", ws.value);
        if (const auto settled = c.dialect().feed_settled("e"); !settled.empty()) {
          sql.filter(settled);
        }
        if (query.after) {
          auto at = c.query("SELECT tx, seq FROM events WHERE workspace_id = ? AND id = ?",
                            sql::Params().id(ws).id(*query.after));
          if (!at.next()) return UnknownAfterEvent{};
          sql.filter("(e.tx > ? OR (e.tx = ? AND e.seq > ?))", at.int64(0), at.int64(0),
                     at.int64(1));
        }
        if (query.type) sql.filter("e.type = ?", *query.type);
        if (query.type_prefix) {
          // "lead." .. "lead/": the family as a range of the type index.
          std::string upper = *query.type_prefix;
          upper.back() = static_cast<char>(upper.back() + 1);
          sql.filter("e.type >= ? AND e.type < ?", *query.type_prefix, std::move(upper));
        }
        sql.sort_by(feed_keys(), SortDirection::kAsc);
        return sql::run_list<StoredEvent>(c, sql, query.page, read_event);
      });
}

std::optional<StoredEvent> EventStore::get(const domain::WorkspaceId& ws,
                                           const domain::EventId& id) {
  static const Operation op("get_event");
  return runner_.read(op, [&](sql::Connection& c) -> std::optional<StoredEvent> {
    auto row = c.query("SELECT id, body FROM events WHERE workspace_id = ? AND id = ?",
                       sql::Params().id(ws).id(id));
    if (!row.next()) return std::nullopt;
    return read_event(row);
  });
}

std::int64_t EventStore::purge_older_than(domain::Timestamp cutoff, int batch) {
  static const Operation op("purge_events");
  return runner_.write(op, [&](sql::Connection& c) -> std::int64_t {
    // Events are stamped as they are written, so seq order is time order (up to the few
    // milliseconds concurrent writers overlap): the oldest are first, and the walk stops at the
    // first one still retained.
    std::vector<std::string> ids;
    {
      auto rows = c.query("SELECT id, created_at FROM events ORDER BY seq LIMIT ?",
                          sql::Params().int64(batch));
      while (rows.next() && rows.int64(1) < cutoff.unix_ms) ids.push_back(rows.text(0));
    }
    for (const auto& id : ids) {
      c.execute(
          "DELETE FROM webhook_attempts WHERE delivery_id IN "
          "(SELECT id FROM webhook_deliveries WHERE event_id = ?)",
          sql::Params().text(id));
      c.execute("DELETE FROM webhook_deliveries WHERE event_id = ?", sql::Params().text(id));
      c.execute("DELETE FROM events WHERE id = ?", sql::Params().text(id));
    }
    // Test events live only in their delivery (body set): the rest of the batch takes expired
    // ones by age, through their partial index.
    const std::int64_t room = batch - static_cast<std::int64_t>(ids.size());
    std::vector<std::pair<std::string, std::string>> tests;  // workspace, delivery
    if (room > 0) {
      auto rows = c.query(
          "SELECT workspace_id, id FROM webhook_deliveries WHERE body IS NOT NULL AND "
          "created_at < ? ORDER BY created_at LIMIT ?",
          sql::Params().int64(cutoff.unix_ms).int64(room));
      while (rows.next()) tests.emplace_back(rows.text(0), rows.text(1));
    }
    for (const auto& [workspace, id] : tests) {
      c.execute("DELETE FROM webhook_attempts WHERE delivery_id = ?", sql::Params().text(id));
      c.execute("DELETE FROM webhook_deliveries WHERE workspace_id = ? AND id = ?",
                sql::Params().text(workspace).text(id));
    }
    return static_cast<std::int64_t>(ids.size() + tests.size());
  });
}

}  // namespace leadline::store
