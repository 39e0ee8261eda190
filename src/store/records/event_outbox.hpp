// Records an event and one delivery per subscribed, enabled endpoint inside the caller's write
// transaction (the transactional outbox of docs/webhooks.md): the change, its event and its
// deliveries commit together or not at all.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "domain/ids.hpp"
#include "domain/timestamp.hpp"
#include "store/sql/connection.hpp"

namespace leadline::store {

// An event with its id drawn and its body rendered: what a create prepares before its write
// transaction, so that the SQLite writer thread, which runs a batch's members one after the
// other, only writes it (BENCHMARKS.md, "Round 8"). `type` is one of the event type literals.
struct PreparedEvent {
  std::string id;
  std::string_view type;
  domain::Timestamp at;
  sql::Params row;  // the events row's values
};

// `data` and `previous_attributes` are JSON texts (record_json/event_shapes.hpp); an empty
// `previous_attributes` is left out of the body.
PreparedEvent prepare_event(const domain::WorkspaceId& ws, std::string_view type,
                            std::string_view data, std::string_view previous_attributes,
                            domain::Timestamp now);

// Writes a prepared event and its deliveries.
void record_event(sql::Connection& conn, const domain::WorkspaceId& ws, const PreparedEvent& event);

// prepare_event, then record_event: for writes whose event depends on what they read.
void record_event(sql::Connection& conn, const domain::WorkspaceId& ws, std::string_view type,
                  std::string_view data, std::string_view previous_attributes,
                  domain::Timestamp now);

// One pending delivery of event `event_id` to endpoint `webhook`, due at once; returns its id.
// `body` is set only for an event the events table does not hold (a test event): the delivery
// then carries its own body, which every attempt and redelivery sends.
std::string record_delivery(sql::Connection& conn, const domain::WorkspaceId& ws,
                            std::string_view webhook, std::string_view event_id,
                            std::string_view type, std::optional<std::string_view> body,
                            domain::Timestamp now);

// The rows record_event writes, collected for a bulk insert (an import): the same events and
// deliveries, in the order they were added. The workspace's endpoints are read once, when the
// collection starts, and must not change until its last flush (one transaction).
class EventRows {
 public:
  EventRows(sql::Connection& conn, const domain::WorkspaceId& ws);

  void add(std::string_view type, std::string_view data, domain::Timestamp now);
  std::size_t size() const { return events_.size(); }
  // Inserts what was added since the last flush.
  void flush(sql::Connection& conn);

 private:
  domain::WorkspaceId ws_;
  std::vector<std::pair<std::string, std::vector<std::string>>> webhooks_;
  std::vector<sql::Params> events_;
  std::vector<sql::Params> deliveries_;
};

// Counts deliveries recorded by this process. A writer that sees it move while its transaction
// ran wakes the delivery workers once that transaction has committed (OperationRunner).
std::uint64_t deliveries_recorded();
// For a write that made deliveries due without an event (a redelivery).
void note_deliveries_recorded();

}  // namespace leadline::store
