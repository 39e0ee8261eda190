// Unit tests for the usage recorder writing into a real SQLite database: counting, batching,
// background and shutdown flushes, hour and day buckets, the latest request, concurrency, and
// surviving store failures.
#include "auth/usage_recorder.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

#include "auth/api_key.hpp"
#include "auth_test_store.hpp"

namespace leadline::auth {
namespace {

using namespace std::chrono_literals;

// Wednesday 2026-11-04 12:00:00 UTC, and the midnight that starts that day.
constexpr std::int64_t kNoon = 1'793'793'600'000;
constexpr std::int64_t kMidnight = 1'793'750'400'000;

class UsageRecorderTest : public ::testing::Test {
 protected:
  testing::TestStore db;
  store::Database& store = *db.store;
  domain::ApiKeyId key_id = make_key();
  std::shared_ptr<std::atomic<std::int64_t>> now =
      std::make_shared<std::atomic<std::int64_t>>(kNoon);

  Clock clock() const {
    return [now = now] { return now->load(); };
  }

  domain::ApiKeyId make_key() {
    const auto ws = store.workspaces().create("usage");
    const std::string key = generate_api_key();
    return store.keys()
        .create({ws.id,
                 "usage key",
                 display_prefix(key),
                 hash_api_key(key),
                 domain::ScopeSet{}.add(domain::Scope::kRead),
                 {}})
        .id;
  }

  domain::UsageReport usage() { return usage_of(key_id); }

  domain::UsageReport usage_of(const domain::ApiKeyId& id) {
    db.clock.set(domain::Timestamp{kNoon});
    auto report = store.usage().report(id);
    if (!std::holds_alternative<domain::UsageReport>(report)) {
      ADD_FAILURE() << "key not found";
      return {};
    }
    return std::get<domain::UsageReport>(report);
  }
};

TEST_F(UsageRecorderTest, CountsRequestsErrorsAndRateLimitHits) {
  {
    UsageRecorder recorder(db.sink(), 1h, clock());
    recorder.record(key_id.value, "GET /leads", 200);
    recorder.record(key_id.value, "GET /leads", 200);
    recorder.record(key_id.value, "GET /leads", 404);
    recorder.record(key_id.value, "GET /leads", 429);
    recorder.record(key_id.value, "POST /leads", 201);
    recorder.record(key_id.value, "POST /leads", 400);
    recorder.record(key_id.value, "PATCH /contacts", 399);
    recorder.record(key_id.value, "DELETE /contacts", 500);
    recorder.flush();
  }
  const auto report = usage();
  EXPECT_EQ(report.today, 8);
  EXPECT_EQ(report.this_week, 8);
  EXPECT_EQ(report.this_month, 8);
  EXPECT_EQ(
      report.by_endpoint,
      (std::map<std::string, std::int64_t>{
          {"GET /leads", 4}, {"POST /leads", 2}, {"PATCH /contacts", 1}, {"DELETE /contacts", 1}}));
  EXPECT_DOUBLE_EQ(report.error_rate, 4.0 / 8.0);  // 404, 429, 400, 500
  EXPECT_EQ(report.rate_limited, 1);
}

TEST_F(UsageRecorderTest, NothingIsWrittenBeforeAFlush) {
  UsageRecorder recorder(db.sink(), 1h, clock());
  recorder.record(key_id.value, "GET /leads", 200);
  EXPECT_EQ(usage().this_month, 0);
  recorder.flush();
  EXPECT_EQ(usage().this_month, 1);
}

TEST_F(UsageRecorderTest, SuccessiveFlushesAddUp) {
  UsageRecorder recorder(db.sink(), 1h, clock());
  recorder.record(key_id.value, "GET /leads", 200);
  recorder.flush();
  recorder.flush();  // nothing new: must not write the same counts again
  recorder.record(key_id.value, "GET /leads", 429);
  recorder.flush();
  const auto report = usage();
  EXPECT_EQ(report.this_month, 2);
  EXPECT_EQ(report.by_endpoint.at("GET /leads"), 2);
  EXPECT_EQ(report.rate_limited, 1);
}

TEST_F(UsageRecorderTest, DestructorFlushes) {
  {
    UsageRecorder recorder(db.sink(), 1h, clock());
    recorder.record(key_id.value, "GET /contacts", 200);
    recorder.record(key_id.value, "GET /contacts", 200);
  }
  EXPECT_EQ(usage().by_endpoint.at("GET /contacts"), 2);
}

TEST_F(UsageRecorderTest, BackgroundThreadFlushesOnItsInterval) {
  UsageRecorder recorder(db.sink(), 50ms, clock());
  recorder.record(key_id.value, "GET /leads", 200);
  std::int64_t seen = 0;
  for (int i = 0; i < 100 && seen == 0; ++i) {
    std::this_thread::sleep_for(20ms);
    seen = usage().this_month;
  }
  EXPECT_EQ(seen, 1);
}

TEST_F(UsageRecorderTest, BucketsByUtcDayOfTheClock) {
  {
    UsageRecorder recorder(db.sink(), 1h, clock());
    *now = kMidnight - 1;  // Tuesday 23:59:59.999
    recorder.record(key_id.value, "GET /leads", 200);
    *now = kMidnight;
    recorder.record(key_id.value, "GET /leads", 200);
    *now = kNoon;
    recorder.record(key_id.value, "GET /leads", 200);
  }
  const auto report = usage();
  EXPECT_EQ(report.today, 2);
  EXPECT_EQ(report.this_week, 3);
  EXPECT_EQ(report.this_month, 3);
}

TEST_F(UsageRecorderTest, BucketsByUtcHourAndKeepsEachBucketsLatestRequest) {
  std::vector<domain::UsageDelta> written;
  {
    UsageRecorder recorder(
        [&written](const std::vector<domain::UsageDelta>& deltas) {
          written.insert(written.end(), deltas.begin(), deltas.end());
        },
        1h, clock());
    *now = kNoon - 1;  // 11:59:59.999
    recorder.record(key_id.value, "GET /leads", 200);
    *now = kNoon + 3'599'999;  // 12:59:59.999
    recorder.record(key_id.value, "GET /leads", 429);
    *now = kNoon;  // earlier within the same hour (a clock step back): the latest stays
    recorder.record(key_id.value, "GET /leads", 500);
    *now = kNoon + 3'600'000;  // 13:00
    recorder.record(key_id.value, "GET /leads", 200);
  }
  std::sort(written.begin(), written.end(),
            [](const auto& a, const auto& b) { return a.hour < b.hour; });
  ASSERT_EQ(written.size(), 3u);
  constexpr std::int64_t kNoonHour = kNoon / 3'600'000;
  EXPECT_EQ(written[0].hour, kNoonHour - 1);
  EXPECT_EQ(written[0].requests, 1);
  EXPECT_EQ(written[0].last_at.unix_ms, kNoon - 1);
  EXPECT_EQ(written[1].hour, kNoonHour);
  EXPECT_EQ(written[1].requests, 2);
  EXPECT_EQ(written[1].errors, 2);
  EXPECT_EQ(written[1].rate_limited, 1);
  EXPECT_EQ(written[1].last_at.unix_ms, kNoon + 3'599'999);
  EXPECT_EQ(written[2].hour, kNoonHour + 1);
  EXPECT_EQ(written[2].last_at.unix_ms, kNoon + 3'600'000);
  for (const auto& d : written) {
    EXPECT_EQ(d.key_id, key_id);
    EXPECT_EQ(d.endpoint, "GET /leads");
  }
}

TEST_F(UsageRecorderTest, KeysAreCountedSeparately) {
  const domain::ApiKeyId other = make_key();
  {
    UsageRecorder recorder(db.sink(), 1h, clock());
    recorder.record(key_id.value, "GET /leads", 200);
    recorder.record(other.value, "GET /leads", 200);
    recorder.record(other.value, "GET /leads", 200);
  }
  EXPECT_EQ(usage().this_month, 1);
  const auto other_report = usage_of(other);
  EXPECT_EQ(other_report.this_month, 2);
}

TEST_F(UsageRecorderTest, ConcurrentRecordsAreAllCounted) {
  constexpr int kThreads = 8;
  constexpr int kPerThread = 2'000;
  {
    UsageRecorder recorder(db.sink(), 5ms, clock());  // flushes race with the records
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        for (int i = 0; i < kPerThread; ++i) {
          recorder.record(key_id.value, t % 2 == 0 ? "GET /leads" : "GET /contacts",
                          i % 10 == 0 ? 429 : 200);
        }
      });
    }
    for (auto& t : threads) t.join();
  }
  const auto report = usage();
  EXPECT_EQ(report.this_month, kThreads * kPerThread);
  EXPECT_EQ(report.by_endpoint.at("GET /leads"), kThreads / 2 * kPerThread);
  EXPECT_EQ(report.rate_limited, kThreads * kPerThread / 10);
  EXPECT_DOUBLE_EQ(report.error_rate, 0.1);
}

TEST_F(UsageRecorderTest, FailedFlushKeepsCountsForTheNextOne) {
  testing::UsageFailingSink flaky(db.sink());
  {
    UsageRecorder recorder(flaky.sink(), 1h, clock());
    recorder.record(key_id.value, "GET /leads", 200);
    recorder.record(key_id.value, "GET /leads", 429);
    flaky.fail(true);
    EXPECT_NO_THROW(recorder.flush());
    recorder.record(key_id.value, "GET /leads", 200);
    EXPECT_NO_THROW(recorder.flush());
    EXPECT_EQ(usage().this_month, 0);
    flaky.fail(false);
    recorder.flush();
    EXPECT_EQ(usage().this_month, 3);
    EXPECT_EQ(usage().rate_limited, 1);
    recorder.flush();
  }
  EXPECT_EQ(usage().this_month, 3);  // written once, not again at shutdown
  EXPECT_GE(flaky.calls(), 3);
}

TEST_F(UsageRecorderTest, FailureAtShutdownDoesNotThrow) {
  testing::UsageFailingSink flaky(db.sink());
  flaky.fail(true);
  EXPECT_NO_THROW({
    UsageRecorder recorder(flaky.sink(), 1h, clock());
    recorder.record(key_id.value, "GET /leads", 200);
  });
}

}  // namespace
}  // namespace leadline::auth
