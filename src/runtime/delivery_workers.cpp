// One dispatcher thread claims due deliveries a little ahead of the free senders, so a sender
// rarely waits for a claim to commit; each endpoint holds at most half the senders' claims, so
// a slow or dead endpoint leaves the other half to everyone else. A sender hands its outcome to
// one reporter thread and takes the next job at once: the reporter writes every outcome that
// is waiting in one transaction, so the single SQLite writer spends one commit, not one per
// attempt, on the delivery log.
#include "runtime/delivery_workers.hpp"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <random>
#include <thread>

#include "webhooks/delivery_sender.hpp"
#include "webhooks/retry_schedule.hpp"
#include "webhooks/webhook_secret.hpp"

namespace leadline::runtime {

namespace {

// A claim covers waiting in the queue (at most about one attempt, since no more than one job
// per sender waits) and the attempt itself, plus this margin for recording it; after that,
// another instance may take over.
constexpr std::chrono::milliseconds kLeaseMargin{5'000};
// How often an idle dispatcher looks for work that other instances, retries or restarts made
// due; commits in this process wake it at once.
constexpr std::chrono::milliseconds kPollInterval{250};
// The purge runs every quarter of the retention, at most once a minute (and at least every
// 100 ms, for the short retentions of tests): an event outlives its retention by little.
std::chrono::milliseconds purge_interval(std::chrono::milliseconds retention) {
  return std::clamp(retention / 4, std::chrono::milliseconds(100),
                    std::chrono::milliseconds(60'000));
}
constexpr int kPurgeBatch = 500;

std::string user_agent() {
  return std::string("leadline-webhooks/") + LEADLINE_VERSION;
}

}  // namespace

struct DeliveryWorkers::State {
  store::Database& db;
  WebhookConfig config;
  const domain::Clock& clock;
  const observability::Logger& logger;
  webhooks::RetrySchedule schedule;
  int per_endpoint_limit;

  std::mutex mutex;
  std::condition_variable work_ready;
  std::condition_variable reports_ready;
  std::deque<store::ClaimedDelivery> queue;
  std::map<std::string, int, std::less<>> claimed_by_endpoint;  // queued or sending
  int claimed = 0;                                              // queued or sending
  std::vector<store::AttemptReport> reports;                    // waiting to be written
  bool stopping = false;

  std::vector<std::thread> threads;

  State(store::Database& d, const WebhookConfig& c, const domain::Clock& k,
        const observability::Logger& l)
      : db(d),
        config(c),
        clock(k),
        logger(l),
        schedule(c.retry_schedule.empty() ? webhooks::default_retry_schedule() : c.retry_schedule),
        per_endpoint_limit(std::max(1, c.workers / 2)) {}

  bool should_stop() {
    const std::lock_guard lock(mutex);
    return stopping;
  }

  void dispatch() {
    auto& signal = db.delivery_signal();
    while (true) {
      const std::uint64_t seen = signal.generation();
      int room = 0;
      {
        const std::lock_guard lock(mutex);
        if (stopping) return;
        // Senders plus one waiting job each.
        room = 2 * config.workers - claimed;
      }
      if (room > 0 && due() && claim(room) > 0) continue;
      signal.wait_for(seen, kPollInterval);
    }
  }

  bool due() {
    try {
      return db.deliveries().any_due();
    } catch (const std::exception& e) {
      logger.log(observability::Level::kWarn, "due webhook deliveries could not be looked up",
                 {{"error", e.what()}});
      return false;
    }
  }

  // Claims up to `room` deliveries and queues them; returns how many.
  std::size_t claim(int room) {
    std::vector<store::ClaimedDelivery> taken;
    try {
      const domain::Timestamp lease_until{clock.now().unix_ms +
                                          (2 * config.timeout + kLeaseMargin).count()};
      // Counted as admitted, so one claim cannot overfill an endpoint.
      std::map<std::string, int, std::less<>> admitted;
      taken = db.deliveries().claim(room, lease_until, [&](std::string_view webhook) {
        const std::lock_guard lock(mutex);
        const auto it = claimed_by_endpoint.find(webhook);
        const int held = it == claimed_by_endpoint.end() ? 0 : it->second;
        int& extra = admitted[std::string(webhook)];
        if (held + extra >= per_endpoint_limit) return false;
        ++extra;
        return true;
      });
    } catch (const std::exception& e) {
      logger.log(observability::Level::kWarn, "webhook deliveries could not be claimed",
                 {{"error", e.what()}});
      return 0;
    }
    {
      const std::lock_guard lock(mutex);
      for (auto& d : taken) {
        ++claimed_by_endpoint[d.webhook.value];
        ++claimed;
        queue.push_back(std::move(d));
      }
    }
    work_ready.notify_all();
    return taken.size();
  }

  void send_loop() {
    webhooks::DeliverySender sender({webhooks::AddressPolicy(config.allow_private),
                                     config.allow_http, config.timeout, user_agent()});
    std::mt19937_64 random(std::random_device{}());
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    while (true) {
      store::ClaimedDelivery job;
      {
        std::unique_lock lock(mutex);
        work_ready.wait(lock, [&] { return stopping || !queue.empty(); });
        // Jobs not started are handed back on stop (~DeliveryWorkers).
        if (stopping) return;
        job = std::move(queue.front());
        queue.pop_front();
      }
      store::AttemptReport report = attempt(sender, job, unit(random));
      {
        const std::lock_guard lock(mutex);
        if (--claimed_by_endpoint[job.webhook.value] == 0) {
          claimed_by_endpoint.erase(job.webhook.value);
        }
        --claimed;
        reports.push_back(std::move(report));
      }
      reports_ready.notify_one();
      // Room again: the dispatcher may claim more.
      db.delivery_signal().notify();
    }
  }

  store::AttemptReport attempt(webhooks::DeliverySender& sender, const store::ClaimedDelivery& job,
                               double unit_random) {
    webhooks::Attempt request{job.url, job.body, job.event_id, {}};
    for (const auto& secret : job.secrets) {
      if (auto bytes = webhooks::decode_secret(secret)) {
        request.secret_bytes_newest_first.push_back(std::move(*bytes));
      }
    }
    const domain::Timestamp started = clock.now();
    const webhooks::AttemptResult result = sender.send(request, started.unix_ms / 1000);

    store::AttemptReport report;
    report.workspace = job.workspace;
    report.id = job.id;
    report.webhook = job.webhook;
    report.attempt = {started, result.status_code, result.duration_ms, result.error,
                      result.response_excerpt};
    if (result.succeeded()) {
      report.status = domain::DeliveryStatus::kSucceeded;
      return report;
    }
    const int attempt_number = job.attempts_before + 1;
    if (auto delay = schedule.next_delay(attempt_number, unit_random, result.retry_after)) {
      report.status = domain::DeliveryStatus::kPending;
      report.next_attempt_at = domain::Timestamp{clock.now().unix_ms + delay->count()};
    } else {
      report.status = domain::DeliveryStatus::kFailed;
    }
    if (result.status_code == 410) {
      report.disable_endpoint = "gone";
    } else if (started.unix_ms - job.healthy_since.unix_ms > config.disable_after.count()) {
      report.disable_endpoint = "failing";
    }
    return report;
  }

  // Writes the outcomes senders leave, all that wait at once; returns after stop, once none is
  // left.
  void report_loop() {
    while (true) {
      std::vector<store::AttemptReport> batch;
      {
        std::unique_lock lock(mutex);
        reports_ready.wait(lock, [&] { return stopping || !reports.empty(); });
        if (reports.empty()) return;
        batch.swap(reports);
      }
      try {
        db.deliveries().report(batch);
      } catch (const std::exception& e) {
        // The claims run out and the attempts are made again: at least once, never lost.
        logger.log(observability::Level::kWarn, "webhook attempts could not be recorded",
                   {{"attempts", static_cast<std::int64_t>(batch.size())}, {"error", e.what()}});
      }
    }
  }

  void purge_loop() {
    while (!should_stop()) {
      try {
        const domain::Timestamp cutoff{clock.now().unix_ms - config.event_retention.count()};
        // Short transactions, one after the other: writers wait for one batch at most.
        while (db.events().purge_older_than(cutoff, kPurgeBatch) == kPurgeBatch) {
          if (should_stop()) return;
        }
      } catch (const std::exception& e) {
        logger.log(observability::Level::kWarn, "expired events could not be purged",
                   {{"error", e.what()}});
      }
      std::unique_lock lock(mutex);
      work_ready.wait_for(lock, purge_interval(config.event_retention), [&] { return stopping; });
    }
  }
};

DeliveryWorkers::DeliveryWorkers(store::Database& db, const WebhookConfig& config,
                                 const domain::Clock& clock, const observability::Logger& logger)
    : state_(std::make_unique<State>(db, config, clock, logger)) {
  webhooks::init_http_client_library();
  State& s = *state_;
  s.threads.emplace_back([&s] { s.purge_loop(); });
  if (config.workers <= 0) return;
  s.threads.emplace_back([&s] { s.report_loop(); });
  for (int i = 0; i < config.workers; ++i) s.threads.emplace_back([&s] { s.send_loop(); });
  s.threads.emplace_back([&s] { s.dispatch(); });
}

DeliveryWorkers::~DeliveryWorkers() {
  State& s = *state_;
  {
    const std::lock_guard lock(s.mutex);
    s.stopping = true;
  }
  s.work_ready.notify_all();
  s.db.delivery_signal().notify();
  // Dispatcher and senders first (attempts under way finish), then the reporter, which writes
  // every outcome left before it returns, then the purge.
  for (auto it = s.threads.rbegin(); it != s.threads.rend(); ++it) {
    s.reports_ready.notify_all();
    it->join();
  }
  // Claimed but never attempted: claimable again at once, here or by another instance.
  if (!s.queue.empty()) {
    try {
      s.db.deliveries().release({s.queue.begin(), s.queue.end()});
    } catch (const std::exception& e) {
      s.logger.log(observability::Level::kWarn, "claimed webhook deliveries could not be released",
                   {{"error", e.what()}});
    }
  }
}

}  // namespace leadline::runtime
