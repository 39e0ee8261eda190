// Usage counters: sharded in-memory maps on the request path, written to the database in batches.
#include "auth/usage_recorder.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace leadline::auth {

namespace {

constexpr std::size_t kShardCount = 16;

struct UsageKey {
  std::string key_id;
  std::int64_t hour = 0;
  std::string endpoint;
};

// The same key as views, so that counting a request whose key is already there copies nothing.
struct UsageKeyView {
  std::string_view key_id;
  std::int64_t hour = 0;
  std::string_view endpoint;
};

struct UsageKeyHash {
  using is_transparent = void;
  std::size_t operator()(const UsageKeyView& k) const {
    std::size_t h = std::hash<std::string_view>{}(k.key_id);
    h = h * 31 + std::hash<std::int64_t>{}(k.hour);
    return h * 31 + std::hash<std::string_view>{}(k.endpoint);
  }
  std::size_t operator()(const UsageKey& k) const {
    return (*this)(UsageKeyView{k.key_id, k.hour, k.endpoint});
  }
};

struct UsageKeyEqual {
  using is_transparent = void;
  static UsageKeyView view(const UsageKey& k) { return {k.key_id, k.hour, k.endpoint}; }
  static UsageKeyView view(const UsageKeyView& k) { return k; }
  template <class A, class B>
  bool operator()(const A& a, const B& b) const {
    const UsageKeyView x = view(a);
    const UsageKeyView y = view(b);
    return x.hour == y.hour && x.key_id == y.key_id && x.endpoint == y.endpoint;
  }
};

struct Counts {
  std::int64_t requests = 0;
  std::int64_t errors = 0;
  std::int64_t rate_limited = 0;
  std::int64_t last_ms = 0;  // the latest request counted

  void add(const Counts& other) {
    requests += other.requests;
    errors += other.errors;
    rate_limited += other.rate_limited;
    last_ms = std::max(last_ms, other.last_ms);
  }
};

using CountsMap = std::unordered_map<UsageKey, Counts, UsageKeyHash, UsageKeyEqual>;

struct Shard {
  std::mutex mutex;
  CountsMap counts;
};

}  // namespace

struct UsageRecorder::Impl {
  UsageSink sink;
  std::chrono::milliseconds flush_interval;
  Clock clock;
  const observability::Logger& logger;
  std::atomic<std::int64_t> last_flush_ms;
  std::array<Shard, kShardCount> shards;

  // One flush at a time, so a batch that failed is retried before newer counts are written.
  std::mutex flush_mutex;
  CountsMap unwritten;  // counts a failed flush kept for the next attempt
  bool failure_logged = false;

  std::mutex stop_mutex;
  std::condition_variable stop_signal;
  bool stopping = false;
  std::thread worker;

  Impl(UsageSink s, std::chrono::milliseconds interval, Clock c, const observability::Logger& l)
      : sink(std::move(s)),
        flush_interval(interval),
        clock(std::move(c)),
        logger(l),
        last_flush_ms(clock()) {}

  void run() {
    std::unique_lock lock(stop_mutex);
    while (!stopping) {
      stop_signal.wait_for(lock, flush_interval, [&] { return stopping; });
      if (stopping) break;
      lock.unlock();
      flush();
      lock.lock();
    }
  }

  void flush() {
    std::lock_guard flushing(flush_mutex);
    CountsMap batch = std::move(unwritten);
    unwritten.clear();
    for (auto& shard : shards) {
      CountsMap taken;
      {
        std::lock_guard lock(shard.mutex);
        taken.swap(shard.counts);
      }
      for (auto& [key, counts] : taken) batch[key].add(counts);
    }
    if (batch.empty()) {
      last_flush_ms.store(clock(), std::memory_order_relaxed);
      return;
    }

    std::vector<domain::UsageDelta> deltas;
    deltas.reserve(batch.size());
    for (const auto& [key, counts] : batch) {
      deltas.push_back(domain::UsageDelta{domain::ApiKeyId{key.key_id}, key.hour, key.endpoint,
                                          counts.requests, counts.errors, counts.rate_limited,
                                          domain::Timestamp{counts.last_ms}});
    }
    try {
      sink(deltas);
      last_flush_ms.store(clock(), std::memory_order_relaxed);
      if (failure_logged) {
        logger.log(observability::Level::kInfo, "usage counts written again");
        failure_logged = false;
      }
    } catch (const std::exception& e) {
      keep_for_retry(std::move(batch), e.what());
    } catch (...) {
      keep_for_retry(std::move(batch), "unknown error");
    }
  }

  // Usage is bookkeeping: a failing database must not take requests down. The counts wait for
  // the next flush; one line per outage keeps the log readable.
  void keep_for_retry(CountsMap batch, const char* reason) {
    unwritten = std::move(batch);
    if (!failure_logged) {
      logger.log(observability::Level::kError, "writing usage counts failed, will retry",
                 {{"error", reason}});
      failure_logged = true;
    }
  }
};

UsageRecorder::UsageRecorder(UsageSink sink, std::chrono::milliseconds flush_interval, Clock clock,
                             const observability::Logger& logger)
    : impl_(std::make_unique<Impl>(std::move(sink), flush_interval, std::move(clock), logger)) {
  impl_->worker = std::thread([impl = impl_.get()] { impl->run(); });
}

UsageRecorder::~UsageRecorder() {
  {
    std::lock_guard lock(impl_->stop_mutex);
    impl_->stopping = true;
  }
  impl_->stop_signal.notify_all();
  impl_->worker.join();
  impl_->flush();
}

void UsageRecorder::record(std::string_view key_id, std::string_view endpoint, unsigned status) {
  const domain::Timestamp at{impl_->clock()};
  const UsageKeyView key{key_id, domain::utc_hour(at), endpoint};
  const Counts delta{1, status >= 400 ? 1 : 0, status == 429 ? 1 : 0, at.unix_ms};
  Shard& shard = impl_->shards[UsageKeyHash{}(key) % kShardCount];
  std::lock_guard lock(shard.mutex);
  auto found = shard.counts.find(key);
  if (found == shard.counts.end()) {
    found = shard.counts.try_emplace(UsageKey{std::string(key_id), key.hour, std::string(endpoint)})
                .first;
  }
  found->second.add(delta);
}

void UsageRecorder::flush() {
  impl_->flush();
}

double UsageRecorder::seconds_since_flush() const {
  const auto last = impl_->last_flush_ms.load(std::memory_order_relaxed);
  return static_cast<double>(impl_->clock() - last) / 1000.0;
}

}  // namespace leadline::auth
