// What `serve` forgets in the background: events past --event-retention (with their
// deliveries), Idempotency-Key answers past their 24 hours, usage counts past their 90 days and
// ended dashboard sessions, in short batches.
#pragma once

#include <chrono>
#include <memory>

#include "domain/clock.hpp"
#include "observability/logger.hpp"
#include "store/database.hpp"

namespace leadline::runtime {

class RetentionPurge {
 public:
  // Starts the purge thread; it purges at once, then every quarter of the event retention (at
  // most a minute apart, at least 100 ms).
  RetentionPurge(store::Database& db, std::chrono::milliseconds event_retention,
                 store::SessionLifetime sessions, const domain::Clock& clock,
                 const observability::Logger& logger);
  // Stops between batches and joins the thread.
  ~RetentionPurge();
  RetentionPurge(const RetentionPurge&) = delete;
  RetentionPurge& operator=(const RetentionPurge&) = delete;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace leadline::runtime
