// The JSON writer's output must parse back to what was written, whatever the text holds.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include "record_json/json_writer.hpp"

namespace leadline::record_json {
namespace {

TEST(JsonWriter, EscapesAndRoundTrips) {
  std::string out;
  JsonWriter w(out);
  std::string tricky = "q\"b\\s/\n\r\t\b\f";
  tricky += '\x01';
  tricky += '\0';
  tricky += "é\xe2\x80\xa8";
  w.begin_object()
      .field("s", tricky)
      .field("n", std::int64_t{-5})
      .field("d", 0.1)
      .field("b", true)
      .key("z")
      .null()
      .field("a", std::vector<std::string>{"x", "y"})
      .end_object();
  auto v = boost::json::parse(out).as_object();
  EXPECT_EQ(std::string(v.at("s").as_string()), tricky);
  EXPECT_EQ(v.at("n").as_int64(), -5);
  EXPECT_DOUBLE_EQ(v.at("d").as_double(), 0.1);
  EXPECT_TRUE(v.at("z").is_null());
  EXPECT_EQ(v.at("a").as_array().size(), 2u);
}

// Clean text is skipped sixteen or eight bytes at a time: every escapable byte must still be caught
// at every offset within and across those words, and bytes >= 0x80 must never count as escapable.
TEST(JsonWriter, EscapesAtEveryOffsetOfLongText) {
  for (const char special : {'"', '\\', '\n', '\x1f', '\0', '\x7f'}) {
    for (std::size_t at = 0; at < 52; ++at) {
      // Insertions stay in the ASCII part, so the UTF-8 after it stays whole; 52 offsets cover
      // the sixteen- and eight-byte steps and the bytes after them.
      std::string text = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ\xc3\xa9\xe2\x82\xac";
      text.insert(at, 1, special);
      std::string out;
      JsonWriter(out).string(text);
      EXPECT_EQ(std::string(boost::json::parse(out).as_string()), text) << "offset " << at;
      const bool escaped = special != '\x7f';
      EXPECT_EQ(out.size(),
                text.size() + 2 + (escaped ? (special < 0x20 && special != '\n' ? 5 : 1) : 0))
          << "offset " << at;
    }
  }
}

TEST(JsonWriter, TimestampsAreIsoStrings) {
  std::string out;
  JsonWriter w(out);
  w.begin_array().timestamp({0}).timestamp({1'764'140'000'123}).end_array();
  EXPECT_EQ(out, R"(["1970-01-01T00:00:00.000Z","2025-11-26T06:53:20.123Z"])");
}

TEST(JsonWriter, TimestampsOutsideFourDigitYearsAndLongKeys) {
  std::string out;
  JsonWriter w(out);
  const std::string long_key(70, 'k');
  w.begin_object()
      .field("a", domain::Timestamp{-62'167'219'200'001})
      .field(long_key, domain::Timestamp{253'402'300'800'000})
      .end_object();
  EXPECT_EQ(out, "{\"a\":\"" + domain::format_iso8601({-62'167'219'200'001}) + "\",\"" + long_key +
                     "\":\"" + domain::format_iso8601({253'402'300'800'000}) + "\"}");
  EXPECT_EQ(domain::format_iso8601({253'402'300'800'000}), "10000-01-01T00:00:00.000Z");
}

TEST(JsonWriter, NegativeZeroIsWrittenAsZero) {
  std::string out;
  JsonWriter(out).number(-0.0);
  EXPECT_EQ(out, "0");
}

}  // namespace
}  // namespace leadline::record_json
