// One dispatcher thread claims work only when a sender is free, so a claim never outlives the
// lease it takes; each endpoint gets at most half the senders, so a slow or dead endpoint
// leaves the other half to everyone else. Outcomes are recorded by the sender that made the
// attempt; the SQLite engine's group commit batches concurrent reports into one transaction.
#include "runtime/delivery_workers.hpp"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <random>
#include <thread>

#include "store/engine.hpp"
#include "webhooks/delivery_sender.hpp"
#include "webhooks/retry_schedule.hpp"
#include "webhooks/webhook_secret.hpp"

namespace leadline::runtime {

namespace {

// A claim outlives the attempt's timeout by this much before another instance may take over.
constexpr std::chrono::milliseconds kLeaseMargin{5'000};
// How often an idle dispatcher looks for work that other instances, retries or restarts made
// due; commits in this process wake it at once.
constexpr std::chrono::milliseconds kPollInterval{250};
constexpr std::chrono::milliseconds kPurgeInterval{60'000};
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
  std::deque<store::ClaimedDelivery> queue;
  std::map<std::string, int, std::less<>> in_flight;  // by endpoint id, queued or sending
  int busy = 0;                                       // queued or sending
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

  void dispatch() {
    auto& signal = db.delivery_signal();
    while (true) {
      const std::uint64_t seen = signal.generation();
      int free = 0;
      {
        const std::lock_guard lock(mutex);
        if (stopping) return;
        free = config.workers - busy;
      }
      if (free > 0 && due() && claim(free) > 0) continue;
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

  // Claims up to `free` deliveries and queues them; returns how many.
  std::size_t claim(int free) {
    std::vector<store::ClaimedDelivery> claimed;
    try {
      const domain::Timestamp lease_until{clock.now().unix_ms +
                                          (config.timeout + kLeaseMargin).count()};
      // Counts are taken as admitted so one claim cannot overfill an endpoint.
      std::map<std::string, int, std::less<>> admitted;
      claimed = db.deliveries().claim(free, lease_until, [&](std::string_view webhook) {
        const std::lock_guard lock(mutex);
        const auto it = in_flight.find(webhook);
        const int now_in_flight = it == in_flight.end() ? 0 : it->second;
        int& extra = admitted[std::string(webhook)];
        if (now_in_flight + extra >= per_endpoint_limit) return false;
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
      for (auto& d : claimed) {
        ++in_flight[d.webhook.value];
        ++busy;
        queue.push_back(std::move(d));
      }
    }
    work_ready.notify_all();
    return claimed.size();
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
        if (queue.empty()) return;
        job = std::move(queue.front());
        queue.pop_front();
      }
      attempt(sender, job, unit(random));
      {
        const std::lock_guard lock(mutex);
        if (--in_flight[job.webhook.value] == 0) in_flight.erase(job.webhook.value);
        --busy;
      }
      // A sender is free again: the dispatcher may claim more.
      db.delivery_signal().notify();
    }
  }

  void attempt(webhooks::DeliverySender& sender, const store::ClaimedDelivery& job,
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
    } else {
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
    }
    try {
      db.deliveries().report(report);
    } catch (const std::exception& e) {
      // The claim runs out and the attempt is made again: at least once, never lost.
      logger.log(observability::Level::kWarn, "webhook attempt could not be recorded",
                 {{"delivery_id", job.id.value}, {"error", e.what()}});
    }
  }

  void purge_loop() {
    while (true) {
      {
        const std::lock_guard lock(mutex);
        if (stopping) return;
      }
      try {
        const domain::Timestamp cutoff{clock.now().unix_ms - config.event_retention.count()};
        // Short transactions, one after the other: writers wait for one batch at most.
        while (db.events().purge_older_than(cutoff, kPurgeBatch) == kPurgeBatch) {
          const std::lock_guard lock(mutex);
          if (stopping) return;
        }
      } catch (const std::exception& e) {
        logger.log(observability::Level::kWarn, "expired events could not be purged",
                   {{"error", e.what()}});
      }
      std::unique_lock lock(mutex);
      work_ready.wait_for(lock, kPurgeInterval, [&] { return stopping; });
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
  for (int i = 0; i < config.workers; ++i) s.threads.emplace_back([&s] { s.send_loop(); });
  s.threads.emplace_back([&s] { s.dispatch(); });
}

DeliveryWorkers::~DeliveryWorkers() {
  {
    const std::lock_guard lock(state_->mutex);
    state_->stopping = true;
  }
  state_->work_ready.notify_all();
  state_->db.delivery_signal().notify();
  for (auto& t : state_->threads) t.join();
}

}  // namespace leadline::runtime
