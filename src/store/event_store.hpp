// The events feed (GET /events): a workspace's retained events in feed order, one event by id,
// and the retention purge. Events are written by the stores' own writes (event_outbox.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "domain/ids.hpp"
#include "domain/timestamp.hpp"
#include "store/list_query.hpp"
#include "store/operation_runner.hpp"

namespace leadline::store {

struct EventListQuery {
  std::optional<std::string> type;         // one exact type
  std::optional<std::string> type_prefix;  // a family: "lead." for lead.*
  std::optional<domain::EventId> after;    // only events after this one in feed order
  PageRequest page;
};

// An event as stored: its id and the body every reader and delivery gets, byte for byte.
struct StoredEvent {
  std::string id;
  std::string body;
};

// `after` names no retained event of the workspace.
struct UnknownAfterEvent {};

class EventStore {
 public:
  explicit EventStore(OperationRunner& runner) : runner_(runner) {}

  // Oldest first. Only events no earlier event can still join (docs/design.md, "The events
  // feed"), so a reader following `after` never skips one.
  std::variant<Page<StoredEvent>, UnknownAfterEvent> list(const domain::WorkspaceId& ws,
                                                          const EventListQuery& query);
  std::optional<StoredEvent> get(const domain::WorkspaceId& ws, const domain::EventId& id);

  // Deletes up to `batch` events older than `cutoff` with their deliveries and attempts, in one
  // short transaction; returns how many events went. Test events (DeliveryStore::send_test_event)
  // count as events here: their deliveries go at the same age. Callers repeat until it returns
  // less than `batch`.
  std::int64_t purge_older_than(domain::Timestamp cutoff, int batch);

 private:
  OperationRunner& runner_;
};

}  // namespace leadline::store
