// Unit tests for the sliding-window limiter: exact boundaries, header values, and concurrency.
#include "auth/sliding_window_limiter.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <latch>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace leadline::auth {
namespace {

// A clock the test moves by hand.
struct ManualClock {
  std::shared_ptr<std::atomic<std::int64_t>> now =
      std::make_shared<std::atomic<std::int64_t>>(1'000'000'000);

  Clock clock() const {
    return [now = now] { return now->load(); };
  }
  void set(std::int64_t ms) { *now = ms; }
};

class SlidingWindow : public ::testing::Test {
 protected:
  ManualClock time;
};

TEST_F(SlidingWindow, FiveInTwoSecondsExample) {
  auto limiter = SlidingWindowLimiter({5, 2'000}, time.clock());
  time.set(1'700'000'000'000);
  for (std::int64_t i = 0; i < 5; ++i) {
    const auto d = limiter.acquire("key");
    EXPECT_TRUE(d.allowed) << i;
    EXPECT_EQ(d.limit, 5);
    EXPECT_EQ(d.remaining, 4 - i);
    EXPECT_EQ(d.reset_unix_s, 1'700'000'002);
    EXPECT_EQ(d.retry_after_s, 0);
  }
  const auto refused = limiter.acquire("key");
  EXPECT_FALSE(refused.allowed);
  EXPECT_EQ(refused.limit, 5);
  EXPECT_EQ(refused.window_ms, 2'000);
  EXPECT_EQ(refused.remaining, 0);
  EXPECT_EQ(refused.reset_unix_s, 1'700'000'002);
  EXPECT_EQ(refused.retry_after_s, 2);
}

TEST_F(SlidingWindow, ExactAtTheWindowBoundary) {
  auto limiter = SlidingWindowLimiter({1, 1'000}, time.clock());
  time.set(10'000);
  EXPECT_TRUE(limiter.acquire("k").allowed);
  time.set(10'999);  // the request at 10 000 is still inside (9 999, 10 999]
  EXPECT_FALSE(limiter.acquire("k").allowed);
  time.set(11'000);  // and outside (10 000, 11 000]
  EXPECT_TRUE(limiter.acquire("k").allowed);
}

TEST_F(SlidingWindow, WindowSlidesRequestByRequest) {
  auto limiter = SlidingWindowLimiter({3, 1'000}, time.clock());
  for (const std::int64_t t : {0, 400, 800}) {
    time.set(t);
    EXPECT_TRUE(limiter.acquire("k").allowed) << t;
  }
  time.set(900);
  EXPECT_FALSE(limiter.acquire("k").allowed);
  time.set(1'000);  // the request at 0 left; 400 and 800 remain
  const auto at_1000 = limiter.acquire("k");
  EXPECT_TRUE(at_1000.allowed);
  EXPECT_EQ(at_1000.remaining, 0);
  EXPECT_EQ(at_1000.reset_unix_s, 2);  // oldest counted is 400: leaves at 1 400 ms
  time.set(1'399);
  const auto at_1399 = limiter.acquire("k");
  EXPECT_FALSE(at_1399.allowed);
  EXPECT_EQ(at_1399.retry_after_s, 1);  // 1 ms to wait still says 1 second
  time.set(1'400);
  EXPECT_TRUE(limiter.acquire("k").allowed);
}

TEST_F(SlidingWindow, RefusedRequestsAreNotCounted) {
  auto limiter = SlidingWindowLimiter({2, 1'000}, time.clock());
  time.set(0);
  EXPECT_TRUE(limiter.acquire("k").allowed);
  EXPECT_TRUE(limiter.acquire("k").allowed);
  time.set(500);
  for (int i = 0; i < 10; ++i) EXPECT_FALSE(limiter.acquire("k").allowed);
  time.set(1'000);
  const auto d = limiter.acquire("k");
  EXPECT_TRUE(d.allowed);
  EXPECT_EQ(d.remaining, 1);
}

TEST_F(SlidingWindow, ResetRoundsUpToTheSecond) {
  auto limiter = SlidingWindowLimiter({2, 2'000}, time.clock());
  time.set(1'000'500);
  EXPECT_EQ(limiter.acquire("k").reset_unix_s, 1'003);  // 1 002.5 s rounded up
  time.set(1'001'900);
  const auto second = limiter.acquire("k");
  EXPECT_EQ(second.reset_unix_s, 1'003);  // still the oldest counted request's
  EXPECT_EQ(second.remaining, 0);
  time.set(1'002'000);
  const auto refused = limiter.acquire("k");
  EXPECT_FALSE(refused.allowed);
  EXPECT_EQ(refused.reset_unix_s, 1'003);
  EXPECT_EQ(refused.retry_after_s, 1);  // 500 ms
}

TEST_F(SlidingWindow, RetryAfterRoundsUp) {
  auto limiter = SlidingWindowLimiter({1, 60'000}, time.clock());
  time.set(0);
  EXPECT_TRUE(limiter.acquire("k").allowed);
  time.set(1);
  EXPECT_EQ(limiter.acquire("k").retry_after_s, 60);  // 59 999 ms
  time.set(59'000);
  EXPECT_EQ(limiter.acquire("k").retry_after_s, 1);
  time.set(58'999);
  EXPECT_EQ(limiter.acquire("k").retry_after_s, 2);
}

TEST_F(SlidingWindow, KeysHaveSeparateWindows) {
  auto limiter = SlidingWindowLimiter({1, 1'000}, time.clock());
  EXPECT_TRUE(limiter.acquire("a").allowed);
  EXPECT_FALSE(limiter.acquire("a").allowed);
  EXPECT_TRUE(limiter.acquire("b").allowed);
  EXPECT_FALSE(limiter.acquire("b").allowed);
}

TEST_F(SlidingWindow, IdleKeysStartAfresh) {
  auto limiter = SlidingWindowLimiter({3, 1'000}, time.clock());
  time.set(0);
  for (int i = 0; i < 3; ++i) limiter.acquire("k");
  // Long enough for the shard sweep to have dropped the key in between.
  time.set(3'600'000);
  limiter.acquire("other");
  const auto d = limiter.acquire("k");
  EXPECT_TRUE(d.allowed);
  EXPECT_EQ(d.remaining, 2);
  EXPECT_EQ(d.reset_unix_s, 3'601);
}

TEST_F(SlidingWindow, ClockSteppingBackDoesNotFreeRequests) {
  auto limiter = SlidingWindowLimiter({1, 1'000}, time.clock());
  time.set(10'000);
  EXPECT_TRUE(limiter.acquire("k").allowed);
  time.set(5'000);
  EXPECT_FALSE(limiter.acquire("k").allowed);
  time.set(11'000);
  EXPECT_TRUE(limiter.acquire("k").allowed);
}

TEST_F(SlidingWindow, RemainingCountsDownToZero) {
  auto limiter = SlidingWindowLimiter({100, 60'000}, time.clock());
  for (std::int64_t i = 0; i < 100; ++i) {
    time.set(i * 10);
    ASSERT_EQ(limiter.acquire("k").remaining, 99 - i);
  }
  EXPECT_FALSE(limiter.acquire("k").allowed);
}

TEST(SlidingWindowConcurrency, ExactlyTheLimitOf150SimultaneousRequests) {
  SlidingWindowLimiter limiter({100, 60'000});
  constexpr int kThreads = 150;
  std::atomic<int> allowed{0};
  std::atomic<int> refused{0};
  std::latch start(kThreads);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&] {
      start.arrive_and_wait();
      const auto d = limiter.acquire("shared-key");
      (d.allowed ? allowed : refused)++;
      if (!d.allowed) {
        EXPECT_EQ(d.remaining, 0);
        EXPECT_GE(d.retry_after_s, 1);
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(allowed.load(), 100);
  EXPECT_EQ(refused.load(), 50);
}

TEST(SlidingWindowConcurrency, ManyKeysInParallelEachGetTheirLimit) {
  SlidingWindowLimiter limiter({500, 60'000});
  constexpr int kKeys = 8;
  std::vector<std::atomic<int>> allowed(kKeys);
  std::vector<std::thread> threads;
  for (int t = 0; t < kKeys * 2; ++t) {
    threads.emplace_back([&, t] {
      const int key = t % kKeys;
      for (int i = 0; i < 400; ++i) {
        if (limiter.acquire("key-" + std::to_string(key)).allowed) allowed[key]++;
      }
    });
  }
  for (auto& t : threads) t.join();
  for (int key = 0; key < kKeys; ++key) EXPECT_EQ(allowed[key].load(), 500) << key;
}

TEST(SystemClockMs, IsWallClockUnixMilliseconds) {
  using namespace std::chrono;
  const auto expected = duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
  const std::int64_t got = system_clock_ms()();
  EXPECT_NEAR(static_cast<double>(got), static_cast<double>(expected), 1'000.0);
}

}  // namespace
}  // namespace leadline::auth
