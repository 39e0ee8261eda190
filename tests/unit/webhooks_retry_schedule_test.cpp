// Unit tests for webhooks/retry_schedule: durations and schedules, the default schedule, jitter
// bounds, the last attempt, and the Retry-After floor.
#include <gtest/gtest.h>

#include "webhooks/retry_schedule.hpp"

namespace leadline::webhooks {
namespace retry_schedule_test {

using namespace std::chrono_literals;
using std::chrono::milliseconds;

TEST(WebhookDuration, ParsesEveryUnit) {
  EXPECT_EQ(parse_duration("500ms"), milliseconds(500));
  EXPECT_EQ(parse_duration("90s"), milliseconds(90s));
  EXPECT_EQ(parse_duration("5m"), milliseconds(5min));
  EXPECT_EQ(parse_duration("12h"), milliseconds(12h));
  EXPECT_EQ(parse_duration("30d"), milliseconds(30 * 24h));
  EXPECT_EQ(parse_duration("1ms"), milliseconds(1));
}

TEST(WebhookDuration, RefusesMalformedZeroAndOverflow) {
  for (const auto text :
       {"", "0s", "0ms", "5", "s", "5 s", " 5s", "5s ", "-5s", "+5s", "5S", "5sec", "5min", "1.5h",
        "5w", "5us", "1h30m", "99999999999999999999d", "999999999999999d"}) {
    EXPECT_EQ(parse_duration(text), std::nullopt) << text;
  }
}

TEST(WebhookRetrySchedule, ParsesCommaSeparatedDelays) {
  EXPECT_EQ(parse_retry_schedule("1s,2s"), (std::vector<milliseconds>{1s, 2s}));
  EXPECT_EQ(parse_retry_schedule("5s,5m,30m,2h,5h,10h,10h"), default_retry_schedule());
  EXPECT_EQ(parse_retry_schedule("250ms"), (std::vector<milliseconds>{250ms}));
  EXPECT_EQ(parse_retry_schedule("1s, 2m"), (std::vector<milliseconds>{1s, 2min}));
  for (const auto text : {"", ",", "1s,", ",1s", "1s,,2s", "1s,0s", "1s;2s", "1s,x", "0s"}) {
    EXPECT_EQ(parse_retry_schedule(text), std::nullopt) << text;
  }
}

TEST(WebhookRetrySchedule, DefaultScheduleHasEightAttempts) {
  const RetrySchedule schedule(default_retry_schedule());
  EXPECT_EQ(schedule.max_attempts(), 8u);
  EXPECT_EQ(RetrySchedule(*parse_retry_schedule("1s,2s")).max_attempts(), 3u);
}

TEST(WebhookRetrySchedule, JitterStaysWithinTenPercent) {
  const RetrySchedule schedule(default_retry_schedule());
  const auto expected = default_retry_schedule();
  for (int failed = 1; failed <= 7; ++failed) {
    const auto base = expected[static_cast<std::size_t>(failed) - 1].count();
    const auto low = schedule.next_delay(failed, 0.0);
    const auto high = schedule.next_delay(failed, 0.999);
    const auto middle = schedule.next_delay(failed, 0.5);
    ASSERT_TRUE(low && high && middle) << failed;
    EXPECT_EQ(low->count(), base * 9 / 10) << failed;
    EXPECT_GT(high->count(), base * 109 / 100) << failed;
    EXPECT_LT(high->count(), base * 11 / 10) << failed;
    EXPECT_EQ(middle->count(), base) << failed;
  }
  EXPECT_EQ(schedule.next_delay(1, 0.0), milliseconds(4500));
  EXPECT_EQ(schedule.next_delay(1, 0.999), milliseconds(5499));
}

TEST(WebhookRetrySchedule, NothingAfterTheLastAttempt) {
  const RetrySchedule schedule(default_retry_schedule());
  EXPECT_TRUE(schedule.next_delay(7, 0.5).has_value());
  EXPECT_EQ(schedule.next_delay(8, 0.5), std::nullopt);
  EXPECT_EQ(schedule.next_delay(9, 0.5), std::nullopt);
  EXPECT_EQ(schedule.next_delay(0, 0.5), std::nullopt);
  EXPECT_EQ(schedule.next_delay(8, 0.5, 10s), std::nullopt) << "Retry-After adds no attempt";
  const RetrySchedule short_one(*parse_retry_schedule("1s,2s"));
  EXPECT_EQ(short_one.next_delay(2, 0.5), milliseconds(2s));
  EXPECT_EQ(short_one.next_delay(3, 0.5), std::nullopt);
}

TEST(WebhookRetrySchedule, RetryAfterIsAFloorCappedAtADay) {
  const RetrySchedule schedule(default_retry_schedule());
  EXPECT_EQ(schedule.next_delay(1, 0.5, 60s), milliseconds(60s)) << "raises 5 s";
  EXPECT_EQ(schedule.next_delay(1, 0.5, 2s), milliseconds(5s)) << "never lowers";
  EXPECT_EQ(schedule.next_delay(1, 0.5, 0s), milliseconds(5s));
  EXPECT_EQ(schedule.next_delay(1, 0.5, 48h), milliseconds(24h)) << "capped";
  EXPECT_EQ(schedule.next_delay(7, 0.5, 48h), milliseconds(24h));
}

TEST(WebhookRetryAfter, ParsesDeltaSecondsOnly) {
  EXPECT_EQ(parse_retry_after("7"), 7s);
  EXPECT_EQ(parse_retry_after(" 120 "), 120s);
  EXPECT_EQ(parse_retry_after("0"), 0s);
  EXPECT_EQ(parse_retry_after("86400"), 86400s);
  EXPECT_EQ(parse_retry_after("86401"), 86400s);
  EXPECT_EQ(parse_retry_after("999999999999999999999999"), 86400s);
  for (const auto text :
       {"", " ", "-1", "+7", "7s", "1.5", "Wed, 21 Oct 2015 07:28:00 GMT", "0x10"}) {
    EXPECT_EQ(parse_retry_after(text), std::nullopt) << text;
  }
}

}  // namespace retry_schedule_test
}  // namespace leadline::webhooks
