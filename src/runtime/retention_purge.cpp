// Each batch is its own short transaction, so writers wait for one batch at most; every
// instance purges, and the batches of two instances simply find less to do.
#include "runtime/retention_purge.hpp"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace leadline::runtime {

namespace {

// An event outlives its retention by little; an idempotency key outlives its 24 hours by at
// most a minute, which only lets a late repeat get the stored answer a little longer.
std::chrono::milliseconds purge_interval(std::chrono::milliseconds retention) {
  return std::clamp(retention / 4, std::chrono::milliseconds(100),
                    std::chrono::milliseconds(60'000));
}
constexpr int kPurgeBatch = 500;

// Usage is kept for 90 days: every window the report and the dashboard show (this calendar
// month and ISO week, the last 30 days) lies well inside it, and older hours are history no one
// reads.
constexpr std::chrono::milliseconds kUsageRetention = std::chrono::days(90);

}  // namespace

struct RetentionPurge::State {
  store::Database& db;
  std::chrono::milliseconds event_retention;
  store::SessionLifetime sessions;
  const domain::Clock& clock;
  const observability::Logger& logger;
  std::mutex mutex;
  std::condition_variable stop_requested;
  bool stopping = false;
  std::thread thread;

  State(store::Database& d, std::chrono::milliseconds r, store::SessionLifetime s,
        const domain::Clock& c, const observability::Logger& l)
      : db(d), event_retention(r), sessions(s), clock(c), logger(l) {}

  bool should_stop() {
    const std::lock_guard lock(mutex);
    return stopping;
  }

  // Runs `purge_batch()` until a batch comes back short; a failure is logged as `failure`.
  template <class PurgeBatch>
  void purge_all(PurgeBatch purge_batch, std::string_view failure) {
    try {
      while (purge_batch() == kPurgeBatch) {
        if (should_stop()) return;
      }
    } catch (const std::exception& e) {
      logger.log(observability::Level::kWarn, failure, {{"error", e.what()}});
    }
  }

  void loop() {
    while (!should_stop()) {
      const domain::Timestamp now = clock.now();
      const domain::Timestamp cutoff{now.unix_ms - event_retention.count()};
      purge_all([&] { return db.events().purge_older_than(cutoff, kPurgeBatch); },
                "expired events could not be purged");
      purge_all([&] { return db.idempotency().purge_expired(kPurgeBatch); },
                "expired idempotency keys could not be purged");
      const domain::Timestamp usage_cutoff{now.unix_ms - kUsageRetention.count()};
      purge_all([&] { return db.usage().purge_older_than(usage_cutoff, kPurgeBatch); },
                "old usage counts could not be purged");
      purge_all([&] { return db.sessions().purge_ended(sessions, kPurgeBatch); },
                "ended dashboard sessions could not be purged");
      std::unique_lock lock(mutex);
      stop_requested.wait_for(lock, purge_interval(event_retention), [&] { return stopping; });
    }
  }
};

RetentionPurge::RetentionPurge(store::Database& db, std::chrono::milliseconds event_retention,
                               store::SessionLifetime sessions, const domain::Clock& clock,
                               const observability::Logger& logger)
    : state_(std::make_unique<State>(db, event_retention, sessions, clock, logger)) {
  State& s = *state_;
  s.thread = std::thread([&s] { s.loop(); });
}

RetentionPurge::~RetentionPurge() {
  {
    const std::lock_guard lock(state_->mutex);
    state_->stopping = true;
  }
  state_->stop_requested.notify_all();
  state_->thread.join();
}

}  // namespace leadline::runtime
