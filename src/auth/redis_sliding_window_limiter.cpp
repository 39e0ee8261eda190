// The shared sliding window: the same exact log as the in-process limiter, moved into a Redis
// sorted set per key so that every instance counts against one window.
#include "auth/redis_sliding_window_limiter.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

namespace leadline::auth {

namespace {

// Redis's own clock decides for every instance, so their clocks cannot disagree; a Redis clock
// stepping back is clamped to the key's newest entry, as the in-process limiter does. Members
// are unique through a per-key counter even when several requests share a millisecond.
// KEYS: the window's sorted set, its counter. ARGV: limit, window ms, expiry ms.
// Returns {allowed (0/1), count after this request, oldest counted ms, now ms}.
constexpr std::string_view kWindowScript = R"lua(
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local newest = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if newest[2] and tonumber(newest[2]) > now then now = tonumber(newest[2]) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < limit then
  local seq = redis.call('INCR', KEYS[2])
  redis.call('ZADD', KEYS[1], now, string.format('%d:%d', now, seq))
  count = count + 1
  allowed = 1
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {allowed, count, tonumber(oldest[2] or now), now}
)lua";

constexpr std::string_view kKeyPrefix = "leadline:rl:";

// Redis refuses an expiry that overflows its clock; a window longer than this (ten years) is
// kept that long, which no request can tell apart.
constexpr std::int64_t kMaxExpiryMs = 10LL * 366 * 24 * 3600 * 1000;

// Never reused, so a thread's slot of a destroyed limiter can never be mistaken for another's.
std::atomic<std::uint64_t> next_limiter_id{1};

struct WindowState {
  bool allowed = false;
  std::int64_t count = 0;
  std::int64_t oldest_ms = 0;
  std::int64_t now_ms = 0;
};

std::variant<WindowState, RedisError> window_state(const RedisReply& reply) {
  const auto& e = reply.elements;
  const bool well_formed = reply.kind == RedisReply::Kind::kArray && e.size() == 4 &&
                           std::all_of(e.begin(), e.end(), [](const RedisReply& r) {
                             return r.kind == RedisReply::Kind::kInteger;
                           });
  if (!well_formed) {
    return RedisError{RedisError::Kind::kErrorReply, "unexpected reply from the window script"};
  }
  return WindowState{e[0].integer == 1, e[1].integer, e[2].integer, e[3].integer};
}

RateLimitDecision decide(const RateLimitPolicy& policy, const WindowState& window) {
  const std::int64_t frees_at = window.oldest_ms + policy.window_ms;
  if (!window.allowed) return refusal(policy, frees_at, window.now_ms);
  RateLimitDecision decision;
  decision.limit = policy.limit;
  decision.window_ms = policy.window_ms;
  decision.allowed = true;
  decision.remaining = std::max<std::int64_t>(0, policy.limit - window.count);
  decision.reset_unix_s = ceil_seconds(frees_at);
  return decision;
}

// What one thread keeps for one limiter; only that thread touches it.
struct ThreadSlot {
  std::unique_ptr<RedisConnection> connection;
  std::string script_sha;
  std::chrono::steady_clock::time_point next_connect_at{};
};

}  // namespace

struct RedisSlidingWindowLimiter::Impl {
  Impl(RateLimitPolicy p, RedisEndpoint e, RedisLimiterOptions o, const observability::Logger& l)
      : policy(p), endpoint(std::move(e)), options(o), logger(l) {}

  const RateLimitPolicy policy;
  const RedisEndpoint endpoint;
  const RedisLimiterOptions options;
  const observability::Logger& logger;
  const std::uint64_t id = next_limiter_id++;
  const std::string limit_arg = std::to_string(policy.limit);
  const std::string window_arg = std::to_string(policy.window_ms);
  const std::string expiry_arg = std::to_string(std::min(policy.window_ms, kMaxExpiryMs));

  // Slots are created once per thread under the mutex and then found through a thread_local
  // map, so the request path takes no shared lock.
  std::mutex slots_mutex;
  std::vector<std::unique_ptr<ThreadSlot>> slots;

  // Set while Redis is known not to answer: the outage is logged once, and threads pause
  // between reconnect attempts only while it lasts.
  std::atomic<bool> outage{false};

  ThreadSlot& slot();
  std::optional<RedisError> connect(ThreadSlot& slot);
  std::variant<RedisReply, RedisError> run_script(ThreadSlot& slot, std::string_view key_id);
  std::variant<WindowState, RedisError> consult(ThreadSlot& slot, std::string_view key_id);
  void note(const std::optional<RedisError>& failure);
};

ThreadSlot& RedisSlidingWindowLimiter::Impl::slot() {
  // Entries of destroyed limiters stay behind as a few dead bytes per thread; their ids never
  // come back, so they are never looked up again.
  thread_local std::unordered_map<std::uint64_t, ThreadSlot*> mine;
  if (const auto it = mine.find(id); it != mine.end()) return *it->second;
  std::lock_guard lock(slots_mutex);
  slots.push_back(std::make_unique<ThreadSlot>());
  mine.emplace(id, slots.back().get());
  return *slots.back();
}

std::optional<RedisError> RedisSlidingWindowLimiter::Impl::connect(ThreadSlot& slot) {
  const auto now = std::chrono::steady_clock::now();
  // The pause only holds during an outage: once another thread has reached Redis again, this
  // one reconnects at once rather than refusing requests for the rest of its pause.
  if (now < slot.next_connect_at && outage.load(std::memory_order_relaxed)) {
    return RedisError{RedisError::Kind::kConnectionLost, "waiting to reconnect"};
  }
  slot.next_connect_at = now + options.reconnect_interval;
  auto opened = RedisConnection::open(endpoint, options.timeouts);
  if (auto* e = std::get_if<RedisError>(&opened)) return *e;
  auto connection = std::get<std::unique_ptr<RedisConnection>>(std::move(opened));
  auto loaded = connection->run({"SCRIPT", "LOAD", kWindowScript});
  if (auto* e = std::get_if<RedisError>(&loaded)) return *e;
  slot.script_sha = std::get<RedisReply>(loaded).text;
  slot.connection = std::move(connection);
  return std::nullopt;
}

std::variant<RedisReply, RedisError> RedisSlidingWindowLimiter::Impl::run_script(
    ThreadSlot& slot, std::string_view key_id) {
  const std::string window_key = std::string(kKeyPrefix).append(key_id);
  const std::string counter_key = window_key + ":seq";
  auto evaluate = [&] {
    return slot.connection->run({"EVALSHA", slot.script_sha, "2", window_key, counter_key,
                                 limit_arg, window_arg, expiry_arg});
  };
  auto result = evaluate();
  // A restarted or flushed Redis forgets its scripts; load it again and retry once.
  const auto* e = std::get_if<RedisError>(&result);
  if (e != nullptr && e->kind == RedisError::Kind::kErrorReply &&
      e->message.starts_with("NOSCRIPT")) {
    auto loaded = slot.connection->run({"SCRIPT", "LOAD", kWindowScript});
    if (auto* load_error = std::get_if<RedisError>(&loaded)) return *load_error;
    slot.script_sha = std::get<RedisReply>(loaded).text;
    result = evaluate();
  }
  return result;
}

std::variant<WindowState, RedisError> RedisSlidingWindowLimiter::Impl::consult(
    ThreadSlot& slot, std::string_view key_id) {
  // A connection that sat idle may have been closed by a Redis restart; that earns one retry on
  // a fresh connection. A timeout does not: the script may still run, and must not count twice.
  for (int attempt = 0;; ++attempt) {
    const bool reused = slot.connection != nullptr;
    if (!reused) {
      if (auto failure = connect(slot)) return *failure;
    }
    auto result = run_script(slot, key_id);
    if (const auto* reply = std::get_if<RedisReply>(&result)) return window_state(*reply);
    const RedisError& error = std::get<RedisError>(result);
    if (!error.connection_lost()) return error;
    slot.connection.reset();
    if (!reused || attempt > 0 || error.kind == RedisError::Kind::kTimedOut) return error;
  }
}

void RedisSlidingWindowLimiter::Impl::note(const std::optional<RedisError>& failure) {
  // One line per outage, not per request: only the thread that flips the flag writes.
  if (failure) {
    if (outage.load(std::memory_order_relaxed) || outage.exchange(true)) return;
    const std::string address = endpoint.display();
    logger.log(observability::Level::kError,
               "rate limiter: Redis is unavailable; API requests get 503 until it answers",
               {{"redis", address}, {"error", failure->message}});
  } else if (outage.load(std::memory_order_relaxed) && outage.exchange(false)) {
    const std::string address = endpoint.display();
    logger.log(observability::Level::kInfo,
               "rate limiter: Redis answers again; requests are served", {{"redis", address}});
  }
}

RedisSlidingWindowLimiter::RedisSlidingWindowLimiter(RateLimitPolicy policy, RedisEndpoint endpoint,
                                                     RedisLimiterOptions options,
                                                     const observability::Logger& logger)
    : impl_(std::make_unique<Impl>(policy, std::move(endpoint), options, logger)) {}

RedisSlidingWindowLimiter::~RedisSlidingWindowLimiter() = default;

RateLimitDecision RedisSlidingWindowLimiter::acquire(std::string_view key_id) {
  auto consulted = impl_->consult(impl_->slot(), key_id);
  if (auto* failure = std::get_if<RedisError>(&consulted)) {
    impl_->note(*failure);
    RateLimitDecision decision;
    decision.limit = impl_->policy.limit;
    decision.window_ms = impl_->policy.window_ms;
    decision.unavailable = true;
    return decision;
  }
  impl_->note(std::nullopt);
  return decide(impl_->policy, std::get<WindowState>(consulted));
}

std::optional<std::string> RedisSlidingWindowLimiter::probe() {
  ThreadSlot& slot = impl_->slot();
  std::optional<RedisError> failure;
  if (!slot.connection) failure = impl_->connect(slot);
  if (!failure) {
    auto pong = slot.connection->run({"PING"});
    if (auto* e = std::get_if<RedisError>(&pong)) failure = *e;
  }
  if (!failure) return std::nullopt;
  if (failure->connection_lost()) slot.connection.reset();
  // The caller tells the operator; the outage is marked so that the recovery is logged and the
  // first refused request does not repeat the news.
  impl_->outage = true;
  return failure->message;
}

}  // namespace leadline::auth
