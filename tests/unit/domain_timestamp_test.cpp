// Unit tests for domain/timestamp: ISO 8601 formatting and parsing with millisecond precision.
#include "domain/timestamp.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace leadline::domain {
namespace {

std::optional<std::int64_t> parse_ms(std::string_view text) {
  const auto t = parse_iso8601(text);
  if (!t) return std::nullopt;
  return t->unix_ms;
}

TEST(FormatIso8601, FormatsUtcWithMilliseconds) {
  EXPECT_EQ(format_iso8601({0}), "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(format_iso8601({1'700'000'000'123}), "2023-11-14T22:13:20.123Z");
  EXPECT_EQ(format_iso8601({951'782'400'000}), "2000-02-29T00:00:00.000Z");
  EXPECT_EQ(format_iso8601({1}), "1970-01-01T00:00:00.001Z");
}

TEST(FormatIso8601, FormatsTimesBefore1970) {
  EXPECT_EQ(format_iso8601({-1}), "1969-12-31T23:59:59.999Z");
  EXPECT_EQ(format_iso8601({-86'400'000}), "1969-12-31T00:00:00.000Z");
  EXPECT_EQ(format_iso8601({-2'208'988'800'000}), "1900-01-01T00:00:00.000Z");
}

TEST(FormatIso8601, AppendsToExistingText) {
  std::string s = "at ";
  append_iso8601(s, {0});
  EXPECT_EQ(s, "at 1970-01-01T00:00:00.000Z");
}

TEST(ParseIso8601, RoundTripsFormattedValues) {
  for (const std::int64_t ms :
       {std::int64_t{0}, std::int64_t{1}, std::int64_t{-1}, std::int64_t{999},
        std::int64_t{1'700'000'000'123}, std::int64_t{951'782'400'000},
        std::int64_t{-2'208'988'800'000}, std::int64_t{253'402'300'799'999},
        std::int64_t{4'102'444'800'000}}) {
    EXPECT_EQ(parse_ms(format_iso8601({ms})), ms) << ms;
  }
}

TEST(ParseIso8601, RoundTripsEveryMillisecondOfASecondAroundTheEpoch) {
  for (std::int64_t ms = -1500; ms <= 1500; ++ms) {
    ASSERT_EQ(parse_ms(format_iso8601({ms})), ms);
  }
}

TEST(ParseIso8601, FractionsAreOptionalAndTruncatedToMilliseconds) {
  EXPECT_EQ(parse_ms("1970-01-01T00:00:01Z"), 1000);
  EXPECT_EQ(parse_ms("1970-01-01T00:00:01.5Z"), 1500);
  EXPECT_EQ(parse_ms("1970-01-01T00:00:01.05Z"), 1050);
  EXPECT_EQ(parse_ms("1970-01-01T00:00:01.123456789Z"), 1123);
  EXPECT_FALSE(parse_ms("1970-01-01T00:00:01.1234567890Z"));
  EXPECT_FALSE(parse_ms("1970-01-01T00:00:01.Z"));
}

TEST(ParseIso8601, AppliesOffsets) {
  const auto utc = parse_ms("2026-11-01T10:00:00.000Z");
  ASSERT_TRUE(utc);
  EXPECT_EQ(parse_ms("2026-11-01T12:00:00.000+02:00"), utc);
  EXPECT_EQ(parse_ms("2026-11-01T04:30:00.000-05:30"), utc);
  EXPECT_EQ(parse_ms("2026-11-01T10:00:00.000+00:00"), utc);
  EXPECT_EQ(parse_ms("2026-11-02T00:00:00.000+14:00"), parse_ms("2026-11-01T10:00:00.000Z"));
}

TEST(ParseIso8601, OffsetCanCrossTheEpoch) {
  EXPECT_EQ(parse_ms("1970-01-01T00:30:00.000+01:00"), -30 * 60 * 1000);
}

TEST(ParseIso8601, AcceptsDatesBefore1970) {
  EXPECT_EQ(parse_ms("1900-01-01T00:00:00.000Z"), -2'208'988'800'000);
  EXPECT_EQ(parse_ms("1969-12-31T23:59:59.999Z"), -1);
}

TEST(ParseIso8601, ChecksTheCalendar) {
  EXPECT_FALSE(parse_ms("2026-02-30T00:00:00.000Z"));
  EXPECT_FALSE(parse_ms("2023-02-29T00:00:00.000Z"));
  EXPECT_FALSE(parse_ms("1900-02-29T00:00:00.000Z"));  // divisible by 100, not by 400
  EXPECT_TRUE(parse_ms("2000-02-29T00:00:00.000Z"));
  EXPECT_TRUE(parse_ms("2024-02-29T00:00:00.000Z"));
  EXPECT_FALSE(parse_ms("2026-04-31T00:00:00.000Z"));
  EXPECT_TRUE(parse_ms("2026-12-31T23:59:59.999Z"));
  EXPECT_FALSE(parse_ms("2026-13-01T00:00:00.000Z"));
  EXPECT_FALSE(parse_ms("2026-00-01T00:00:00.000Z"));
  EXPECT_FALSE(parse_ms("2026-01-00T00:00:00.000Z"));
  EXPECT_FALSE(parse_ms("2026-01-01T24:00:00.000Z"));
  EXPECT_FALSE(parse_ms("2026-01-01T00:60:00.000Z"));
  EXPECT_FALSE(parse_ms("2026-01-01T00:00:60.000Z"));
}

TEST(ParseIso8601, RejectsOtherShapes) {
  for (const char* text :
       {"", "2026-01-01", "2026-01-01T00:00:00.000", "2026-01-01 00:00:00.000Z",
        "2026-1-01T00:00:00.000Z", "26-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z ",
        " 2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000+2:00", "2026-01-01T00:00:00.000+0200",
        "2026-01-01T00:00:00.000+24:00", "2026-01-01T00:00:00.000+01:60",
        "2026-01-01T00:00:00,000Z", "2026/01/01T00:00:00.000Z", "2026-01-01T00:00:00.000ZZ",
        "+2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.-1Z"}) {
    EXPECT_FALSE(parse_ms(text)) << text;
  }
}

TEST(Now, IsCurrentWallClockTime) {
  const Timestamp t = now();
  EXPECT_GT(t.unix_ms, 1'700'000'000'000);  // after November 2023
  EXPECT_LT(t.unix_ms, 4'102'444'800'000);  // before 2100
}

}  // namespace
}  // namespace leadline::domain
