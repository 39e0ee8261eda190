// Unit tests for the Redis-shared limiter against a real private redis-server: exactness under
// concurrency and across limiter objects, the sliding window, the decision's numbers, failing
// closed when Redis is gone or hung, and recovery. Also the --redis URL grammar.
#include "auth/redis_sliding_window_limiter.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <latch>
#include <string>
#include <thread>
#include <vector>

#include "auth/redis_url.hpp"
#include "support/redis_instance.hpp"

namespace leadline::auth {
namespace {

using namespace std::chrono_literals;
using SteadyClock = std::chrono::steady_clock;

std::int64_t unix_now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

RedisEndpoint endpoint_of(const leadline_test::RedisInstance& redis) {
  return *parse_redis_url(redis.url());
}

class RedisLimiter : public ::testing::Test {
 protected:
  RedisSlidingWindowLimiter limiter(std::int64_t limit, std::int64_t window_ms) {
    return RedisSlidingWindowLimiter({limit, window_ms}, endpoint_of(redis));
  }

  // A fresh key per test keeps the tests independent of each other's windows.
  std::string key = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  leadline_test::RedisInstance redis;
};

TEST_F(RedisLimiter, CountsDownAndRefusesWithTheInProcessLimitersNumbers) {
  auto limiter = RedisSlidingWindowLimiter({5, 2'000}, endpoint_of(redis));
  const std::int64_t before = unix_now_ms();
  std::int64_t first_reset = 0;
  for (std::int64_t i = 0; i < 5; ++i) {
    const auto d = limiter.acquire(key);
    ASSERT_FALSE(d.unavailable);
    EXPECT_TRUE(d.allowed) << i;
    EXPECT_EQ(d.limit, 5);
    EXPECT_EQ(d.remaining, 4 - i);
    EXPECT_EQ(d.retry_after_s, 0);
    if (i == 0) first_reset = d.reset_unix_s;
    // Every answer points at the first request's exit from the window.
    EXPECT_EQ(d.reset_unix_s, first_reset);
  }
  const std::int64_t after = unix_now_ms();
  EXPECT_GE(first_reset * 1000, before + 2'000);
  EXPECT_LE(first_reset * 1000, after + 2'000 + 999);

  const auto refused = limiter.acquire(key);
  EXPECT_FALSE(refused.unavailable);
  EXPECT_FALSE(refused.allowed);
  EXPECT_EQ(refused.limit, 5);
  EXPECT_EQ(refused.window_ms, 2'000);
  EXPECT_EQ(refused.remaining, 0);
  EXPECT_EQ(refused.reset_unix_s, first_reset);
  EXPECT_GE(refused.retry_after_s, 1);
  EXPECT_LE(refused.retry_after_s, 2);
}

TEST_F(RedisLimiter, RetryAfterIsAtLeastOneSecondForShortWindows) {
  auto limiter = this->limiter(1, 300);
  ASSERT_TRUE(limiter.acquire(key).allowed);
  const auto refused = limiter.acquire(key);
  EXPECT_FALSE(refused.allowed);
  EXPECT_EQ(refused.retry_after_s, 1);
}

TEST_F(RedisLimiter, ExactUnderConcurrency) {
  auto limiter = this->limiter(100, 60'000);
  constexpr int kThreads = 8;
  constexpr int kRequests = 150;
  std::atomic<int> next{0};
  std::atomic<int> allowed{0};
  std::atomic<int> refused{0};
  std::atomic<int> unavailable{0};
  std::latch start_line(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      start_line.arrive_and_wait();
      while (next++ < kRequests) {
        const auto d = limiter.acquire(key);
        (d.unavailable ? unavailable : d.allowed ? allowed : refused)++;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(unavailable, 0);
  EXPECT_EQ(allowed, 100);
  EXPECT_EQ(refused, 50);
}

TEST_F(RedisLimiter, TwoLimitersShareOneWindowExactly) {
  // Two objects with their own connections stand for two server instances.
  auto first = limiter(10, 60'000);
  auto second = limiter(10, 60'000);
  int allowed = 0;
  for (int i = 0; i < 16; ++i) {
    const auto d = (i % 2 == 0 ? first : second).acquire(key);
    ASSERT_FALSE(d.unavailable);
    if (d.allowed) {
      EXPECT_EQ(d.remaining, 9 - allowed) << i;
      ++allowed;
    } else {
      EXPECT_GE(d.retry_after_s, 1);
    }
  }
  EXPECT_EQ(allowed, 10);
}

TEST_F(RedisLimiter, KeysHaveSeparateWindows) {
  auto limiter = this->limiter(1, 60'000);
  EXPECT_TRUE(limiter.acquire(key + "a").allowed);
  EXPECT_FALSE(limiter.acquire(key + "a").allowed);
  EXPECT_TRUE(limiter.acquire(key + "b").allowed);
  EXPECT_FALSE(limiter.acquire(key + "b").allowed);
}

TEST_F(RedisLimiter, TheWindowSlidesRequestByRequest) {
  auto limiter = this->limiter(3, 600);
  const auto t0 = SteadyClock::now();
  ASSERT_TRUE(limiter.acquire(key).allowed);
  std::this_thread::sleep_until(t0 + 300ms);
  ASSERT_TRUE(limiter.acquire(key).allowed);
  ASSERT_TRUE(limiter.acquire(key).allowed);
  EXPECT_FALSE(limiter.acquire(key).allowed);
  if (SteadyClock::now() > t0 + 550ms) GTEST_SKIP() << "the machine is too slow for this test";

  // The first request has left (t0 + 600 ms), the other two have not (t0 + 900 ms).
  std::this_thread::sleep_until(t0 + 700ms);
  const auto d = limiter.acquire(key);
  EXPECT_TRUE(d.allowed);
  EXPECT_EQ(d.remaining, 0);
  EXPECT_FALSE(limiter.acquire(key).allowed);
  if (SteadyClock::now() > t0 + 850ms) GTEST_SKIP() << "the machine is too slow for this test";

  std::this_thread::sleep_until(t0 + 1'000ms);
  const auto later = limiter.acquire(key);
  EXPECT_TRUE(later.allowed);
  EXPECT_EQ(later.remaining, 1);
}

TEST_F(RedisLimiter, RefusedRequestsAreNotCounted) {
  auto limiter = this->limiter(2, 400);
  const auto t0 = SteadyClock::now();
  ASSERT_TRUE(limiter.acquire(key).allowed);
  ASSERT_TRUE(limiter.acquire(key).allowed);
  for (int i = 0; i < 10; ++i) EXPECT_FALSE(limiter.acquire(key).allowed);
  if (SteadyClock::now() > t0 + 350ms) GTEST_SKIP() << "the machine is too slow for this test";
  std::this_thread::sleep_until(t0 + 500ms);
  const auto d = limiter.acquire(key);
  EXPECT_TRUE(d.allowed);
  EXPECT_EQ(d.remaining, 1);
}

// Runs acquire until it is no longer unavailable, for at most `patience`.
RateLimitDecision acquire_until_available(RateLimiter& limiter, const std::string& key,
                                          std::chrono::milliseconds patience) {
  const auto deadline = SteadyClock::now() + patience;
  RateLimitDecision d = limiter.acquire(key);
  while (d.unavailable && SteadyClock::now() < deadline) {
    std::this_thread::sleep_for(20ms);
    d = limiter.acquire(key);
  }
  return d;
}

TEST_F(RedisLimiter, FailsClosedQuicklyWhenRedisStopsAndRecoversWhenItIsBack) {
  auto limiter = this->limiter(5, 60'000);
  ASSERT_TRUE(limiter.acquire(key).allowed);
  redis.stop();

  const auto t0 = SteadyClock::now();
  for (int i = 0; i < 20; ++i) {
    const auto d = limiter.acquire(key);
    EXPECT_TRUE(d.unavailable) << i;
    EXPECT_FALSE(d.allowed) << i;
  }
  EXPECT_LT(SteadyClock::now() - t0, 1s) << "twenty refusals should not wait for Redis";

  redis.start();
  const auto d = acquire_until_available(limiter, key, 2s);
  ASSERT_FALSE(d.unavailable);
  EXPECT_TRUE(d.allowed);
  EXPECT_EQ(d.remaining, 4);  // the restarted Redis kept nothing (no persistence)
}

TEST_F(RedisLimiter, FailsClosedWithinTheCommandTimeoutWhenRedisHangs) {
  auto limiter = this->limiter(5, 60'000);
  ASSERT_TRUE(limiter.acquire(key).allowed);
  redis.freeze();
  const auto t0 = SteadyClock::now();
  const auto d = limiter.acquire(key);
  const auto waited = SteadyClock::now() - t0;
  redis.thaw();
  EXPECT_TRUE(d.unavailable);
  EXPECT_LT(waited, 1s);
  const auto back = acquire_until_available(limiter, key, 2s);
  EXPECT_FALSE(back.unavailable);
  EXPECT_TRUE(back.allowed);
}

TEST_F(RedisLimiter, StartsWithoutRedisAndServesOnceItAppears) {
  redis.stop();
  auto limiter = this->limiter(5, 60'000);
  const auto reason = limiter.probe();
  ASSERT_TRUE(reason.has_value());
  EXPECT_FALSE(reason->empty());
  EXPECT_TRUE(limiter.acquire(key).unavailable);
  redis.start();
  const auto d = acquire_until_available(limiter, key, 2s);
  EXPECT_FALSE(d.unavailable);
  EXPECT_TRUE(d.allowed);
  EXPECT_FALSE(limiter.probe().has_value());
}

TEST_F(RedisLimiter, SurvivesAScriptCacheFlush) {
  auto limiter = this->limiter(5, 60'000);
  ASSERT_TRUE(limiter.acquire(key).allowed);
  auto admin = RedisConnection::open(endpoint_of(redis), {});
  auto& connection = *std::get<std::unique_ptr<RedisConnection>>(admin);
  ASSERT_TRUE(std::holds_alternative<RedisReply>(connection.run({"SCRIPT", "FLUSH"})));
  const auto d = limiter.acquire(key);
  EXPECT_FALSE(d.unavailable);
  EXPECT_EQ(d.remaining, 3);
}

TEST_F(RedisLimiter, UsesTheDatabaseOfTheUrlAndLetsIdleWindowsExpire) {
  auto endpoint = endpoint_of(redis);
  endpoint.database = 3;
  auto limiter = RedisSlidingWindowLimiter({5, 60'000}, endpoint);
  ASSERT_TRUE(limiter.acquire(key).allowed);

  auto in_db3 = RedisConnection::open(endpoint, {});
  auto in_db0 = RedisConnection::open(endpoint_of(redis), {});
  const std::string window_key = "leadline:rl:" + key;
  auto ttl = std::get<std::unique_ptr<RedisConnection>>(in_db3)->run({"PTTL", window_key});
  ASSERT_TRUE(std::holds_alternative<RedisReply>(ttl));
  EXPECT_GT(std::get<RedisReply>(ttl).integer, 50'000);
  EXPECT_LE(std::get<RedisReply>(ttl).integer, 60'000);
  auto absent = std::get<std::unique_ptr<RedisConnection>>(in_db0)->run({"EXISTS", window_key});
  EXPECT_EQ(std::get<RedisReply>(absent).integer, 0);
}

TEST(RedisUrl, AcceptsTheThreeForms) {
  const auto plain = parse_redis_url("redis://127.0.0.1:6379");
  ASSERT_TRUE(plain.has_value());
  EXPECT_EQ(plain->host, "127.0.0.1");
  EXPECT_EQ(plain->port, 6379);
  EXPECT_EQ(plain->database, 0);
  EXPECT_EQ(plain->password, "");

  const auto database = parse_redis_url("redis://cache.internal:6380/2");
  ASSERT_TRUE(database.has_value());
  EXPECT_EQ(database->host, "cache.internal");
  EXPECT_EQ(database->port, 6380);
  EXPECT_EQ(database->database, 2);

  const auto password = parse_redis_url("redis://:s%40cr%3At:p@10.0.0.1:7000/1");
  ASSERT_TRUE(password.has_value());
  EXPECT_EQ(password->password, "s@cr:t:p");
  EXPECT_EQ(password->host, "10.0.0.1");
  EXPECT_EQ(password->port, 7000);
  EXPECT_EQ(password->database, 1);
  EXPECT_EQ(password->display(), "10.0.0.1:7000");

  const auto v6 = parse_redis_url("redis://[::1]:6379");
  ASSERT_TRUE(v6.has_value());
  EXPECT_EQ(v6->host, "::1");
  EXPECT_EQ(v6->display(), "[::1]:6379");
}

TEST(RedisUrl, RejectsEverythingElse) {
  for (const char* bad : {"",
                          "nonsense",
                          "127.0.0.1:6379",
                          "redis://",
                          "redis://localhost",
                          "redis://:6379",
                          "redis://localhost:",
                          "redis://localhost:0",
                          "redis://localhost:65536",
                          "redis://localhost:63a9",
                          "rediss://localhost:6379",
                          "http://localhost:6379",
                          "redis://localhost:6379/",
                          "redis://localhost:6379/x",
                          "redis://localhost:6379/-1",
                          "redis://user:pw@localhost:6379",
                          "redis://:@localhost:6379",
                          "redis://:p%4@localhost:1",
                          "redis://:p%zz@localhost:1",
                          "redis://a b:6379",
                          "redis://::1:6379",
                          "redis://[nope]:1",
                          "redis://[1.2.3.4]:1",
                          "redis://localhost:6379/1/2",
                          "REDIS://localhost:6379"}) {
    EXPECT_FALSE(parse_redis_url(bad).has_value()) << bad;
  }
}

}  // namespace
}  // namespace leadline::auth
