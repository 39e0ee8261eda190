// One dispatcher thread claims due deliveries ahead of the senders, so a sender rarely waits for
// a claim to commit (under write load a claim waits its turn at the SQLite writer). Each
// endpoint gets at most half the senders at once, so a slow or dead endpoint leaves the other
// half to everyone else; an endpoint that answers quickly may have four times that many claimed
// and waiting, one that answers slowly no more than it can send at once, so its claims never
// wait long. A sender hands its outcome to one reporter thread and takes the next job at once:
// the reporter writes every outcome that is waiting in one transaction.
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

// A claim covers waiting in the queue (at most three attempts of its endpoint ahead of it) and
// the attempt itself, plus this margin for recording it; after that, another instance may take
// over.
constexpr int kLeaseAttempts = 4;
constexpr std::chrono::milliseconds kLeaseMargin{5'000};
// An endpoint whose last attempt took less than this counts as fast: more of its deliveries may
// wait claimed.
constexpr std::chrono::milliseconds kFastAttempt{250};
constexpr int kFastEndpointBacklog = 4;
// How often an idle dispatcher looks for work that other instances, retries or restarts made
// due; commits in this process wake it at once.
constexpr std::chrono::milliseconds kPollInterval{250};

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
  // Per endpoint id: claimed (queued or sending), sending, and whether it answered fast.
  struct Endpoint {
    int claimed = 0;
    int sending = 0;
    bool fast = true;
  };
  std::map<std::string, Endpoint, std::less<>> endpoints;
  int claimed = 0;                            // queued or sending, over all endpoints
  std::vector<store::AttemptReport> reports;  // waiting to be written
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
        room = kFastEndpointBacklog * config.workers - claimed;
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
                                          (kLeaseAttempts * config.timeout + kLeaseMargin).count()};
      // Counted as admitted, so one claim cannot overfill an endpoint.
      std::map<std::string, int, std::less<>> admitted;
      taken = db.deliveries().claim(room, lease_until, [&](std::string_view webhook) {
        const std::lock_guard lock(mutex);
        const auto it = endpoints.find(webhook);
        const Endpoint known = it == endpoints.end() ? Endpoint{} : it->second;
        const int limit = per_endpoint_limit * (known.fast ? kFastEndpointBacklog : 1);
        int& extra = admitted[std::string(webhook)];
        if (known.claimed + extra >= limit) return false;
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
        ++endpoints[d.webhook.value].claimed;
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
        auto next = queue.end();
        // The oldest job whose endpoint has a sender to spare.
        work_ready.wait(lock, [&] {
          next = std::find_if(queue.begin(), queue.end(), [&](const store::ClaimedDelivery& d) {
            return endpoints[d.webhook.value].sending < per_endpoint_limit;
          });
          return stopping || next != queue.end();
        });
        // Jobs not started are handed back on stop (~DeliveryWorkers).
        if (stopping) return;
        job = std::move(*next);
        queue.erase(next);
        ++endpoints[job.webhook.value].sending;
      }
      const auto started = std::chrono::steady_clock::now();
      store::AttemptReport report = attempt(sender, job, unit(random));
      const bool fast = std::chrono::steady_clock::now() - started < kFastAttempt;
      {
        const std::lock_guard lock(mutex);
        Endpoint& endpoint = endpoints[job.webhook.value];
        --endpoint.sending;
        --endpoint.claimed;
        endpoint.fast = fast;
        --claimed;
        reports.push_back(std::move(report));
      }
      // Its endpoint has a sender to spare again.
      work_ready.notify_all();
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
};

DeliveryWorkers::DeliveryWorkers(store::Database& db, const WebhookConfig& config,
                                 const domain::Clock& clock, const observability::Logger& logger)
    : state_(std::make_unique<State>(db, config, clock, logger)) {
  webhooks::init_http_client_library();
  State& s = *state_;
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
  // every outcome left before it returns.
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
