// Unit tests for parse_rate_limit: the --rate-limit "N/D" syntax of docs/api.md ("Rate limits").
#include <gtest/gtest.h>

#include "auth/rate_limiter.hpp"

namespace leadline::auth {
namespace {

void expect_policy(std::string_view text, std::int64_t limit, std::int64_t window_ms) {
  const auto policy = parse_rate_limit(text);
  ASSERT_TRUE(policy) << text;
  EXPECT_EQ(policy->limit, limit) << text;
  EXPECT_EQ(policy->window_ms, window_ms) << text;
}

TEST(ParseRateLimit, AcceptsTheDocumentedExamples) {
  expect_policy("100/60s", 100, 60'000);
  expect_policy("5/2s", 5, 2'000);
  expect_policy("10000/60s", 10'000, 60'000);
  expect_policy("1000000/1s", 1'000'000, 1'000);
  expect_policy("100/1m", 100, 60'000);
}

TEST(ParseRateLimit, AcceptsEveryUnit) {
  expect_policy("1/500ms", 1, 500);
  expect_policy("3/2s", 3, 2'000);
  expect_policy("3/2m", 3, 120'000);
  expect_policy("3/2h", 3, 7'200'000);
}

TEST(ParseRateLimit, DefaultPolicyIs100PerMinute) {
  const RateLimitPolicy policy;
  EXPECT_EQ(policy.limit, 100);
  EXPECT_EQ(policy.window_ms, 60'000);
}

// The 429 sentence names the window in seconds, as its Retry-After does.
TEST(WindowText, WholeSecondsElseMilliseconds) {
  EXPECT_EQ(window_text(60'000), "60 s");
  EXPECT_EQ(window_text(7'200'000), "7200 s");
  EXPECT_EQ(window_text(1'000), "1 s");
  EXPECT_EQ(window_text(500), "500 ms");
  EXPECT_EQ(window_text(1'500), "1500 ms");
}

TEST(ParseRateLimit, RejectsMissingParts) {
  for (const char* text : {"", "100", "100/", "/60s", "/", "100/s", "100/60", "s/60s"}) {
    EXPECT_FALSE(parse_rate_limit(text)) << text;
  }
}

TEST(ParseRateLimit, RejectsZeroAndSigns) {
  for (const char* text :
       {"0/60s", "100/0s", "100/0ms", "-1/60s", "100/-60s", "+100/60s", "100/+60s"}) {
    EXPECT_FALSE(parse_rate_limit(text)) << text;
  }
}

TEST(ParseRateLimit, RejectsOtherUnitsAndSyntax) {
  for (const char* text :
       {"100/60sec", "100/60S", "100/60d", "100/60us", "100/1.5s", "1e3/60s", "100/60s ",
        " 100/60s", "100 /60s", "100/ 60s", "100/60 s", "100//60s", "100/60s/1", "100/60ms5",
        "100/60sm", "ten/60s", "100/sixty s", "100\n/60s"}) {
    EXPECT_FALSE(parse_rate_limit(text)) << text;
  }
}

TEST(ParseRateLimit, RejectsOverflow) {
  EXPECT_FALSE(parse_rate_limit("99999999999999999999/1s"));
  EXPECT_FALSE(parse_rate_limit("1/99999999999999999999ms"));
  EXPECT_FALSE(parse_rate_limit("1/9999999999999999h"));
  EXPECT_TRUE(parse_rate_limit("9223372036854775807/1s"));
}

}  // namespace
}  // namespace leadline::auth
