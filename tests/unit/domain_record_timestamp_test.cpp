// Unit tests for domain::parse_record_timestamp: exactly "YYYY-MM-DDTHH:MM:SS.mmmZ", the format
// records show, and nothing that parse_iso8601 alone would also take.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "domain/timestamp.hpp"

namespace leadline::domain {
namespace {

std::optional<std::int64_t> record_ms(std::string_view text) {
  const auto t = parse_record_timestamp(text);
  if (!t) return std::nullopt;
  return t->unix_ms;
}

TEST(ParseRecordTimestamp, AcceptsTheRecordFormat) {
  EXPECT_EQ(record_ms("1970-01-01T00:00:00.000Z"), 0);
  EXPECT_EQ(record_ms("2023-11-14T22:13:20.123Z"), 1'700'000'000'123);
  EXPECT_EQ(record_ms("1969-12-31T23:59:59.999Z"), -1);
  EXPECT_EQ(record_ms("2000-02-29T00:00:00.000Z"), 951'782'400'000);
  EXPECT_EQ(record_ms("9999-12-31T23:59:59.999Z"), 253'402'300'799'999);
}

TEST(ParseRecordTimestamp, RoundTripsWhatFormatIso8601Writes) {
  for (const std::int64_t ms :
       {std::int64_t{0}, std::int64_t{1}, std::int64_t{-1}, std::int64_t{1'700'000'000'123},
        std::int64_t{-2'208'988'800'000}, std::int64_t{-62'167'219'200'000},
        std::int64_t{253'402'300'799'999}}) {
    const std::string text = format_iso8601({ms});
    EXPECT_EQ(record_ms(text), ms) << text;
    EXPECT_EQ(parse_iso8601(text), parse_record_timestamp(text)) << text;
  }
}

TEST(ParseRecordTimestamp, RejectsWhatOnlyTheGeneralParserTakes) {
  for (const char* text :
       {"2026-01-01T00:00:00Z", "2026-01-01T00:00:00.1Z", "2026-01-01T00:00:00.12Z",
        "2026-01-01T00:00:00.1234Z", "2026-01-01T00:00:00.000000Z", "2026-01-01t00:00:00.000Z",
        "2026-01-01T00:00:00.000z", "2026-01-01T00:00:00.000+00:00",
        "2026-01-01T02:00:00.000+02:00"}) {
    EXPECT_TRUE(parse_iso8601(text)) << text;  // the general parser does take it
    EXPECT_FALSE(record_ms(text)) << text;
  }
}

TEST(ParseRecordTimestamp, RejectsOtherShapesAndImpossibleDates) {
  for (const char* text :
       {"", "2026-01-01", "2026-01-01T00:00:00.000", " 2026-01-01T00:00:00.000Z",
        "2026-01-01T00:00:00.000Z ", "2026-01-01 00:00:00.000Z", "2026-01-01T00:00:00,000Z",
        "2026-01-01T00:00:00.0a0Z", "2026-01-01T00:00:00.-10Z", "2026-01-01T00:00:00.+10Z",
        "+026-01-01T00:00:00.000Z", "2026-02-30T00:00:00.000Z", "2023-02-29T00:00:00.000Z",
        "2026-13-01T00:00:00.000Z", "2026-01-01T24:00:00.000Z", "2026-01-01T00:00:60.000Z",
        "2026-01-01T00:00:00.000ZZ"}) {
    EXPECT_FALSE(record_ms(text)) << text;
  }
  EXPECT_FALSE(record_ms(std::string_view("2026-01-01T00:00:00.000Z\0", 25)));
}

}  // namespace
}  // namespace leadline::domain
