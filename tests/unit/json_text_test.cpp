// The JSON text every producer of leadline writes: string escapes and the number form.
#include "json_text/json_text.hpp"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <cmath>
#include <limits>

namespace leadline::json_text {
namespace {

std::string string_text(std::string_view s) {
  std::string out;
  append_string(out, s);
  return out;
}

std::string number_text(double d) {
  std::string out;
  append_number(out, d);
  return out;
}

TEST(JsonTextString, EscapesWithJsonsShortFormsAndLowerCaseHex) {
  std::string text = "q\"b\\s/\n\r\t\b\f";
  text += '\x01';
  text += '\0';
  text += "\x1f\x7f\xc3\xa9";
  EXPECT_EQ(string_text(text), R"("q\"b\\s/\n\r\t\b\f\u0001\u0000\u001f)"
                               "\x7f\xc3\xa9\"");
  EXPECT_EQ(string_text(""), R"("")");
}

// Clean text is skipped eight bytes at a time: every escapable byte must still be caught at
// every offset within and across those words, and bytes >= 0x80 never count as escapable.
TEST(JsonTextString, EscapesAtEveryOffsetOfLongText) {
  for (const char special : {'"', '\\', '\n', '\x1f', '\0', '\x7f'}) {
    for (std::size_t at = 0; at < 24; ++at) {
      std::string text = "abcdefghijklmnopqrstuvwxyz\xc3\xa9\xe2\x82\xac";
      text.insert(at, 1, special);
      const std::string out = string_text(text);
      EXPECT_EQ(std::string(boost::json::parse(out).as_string()), text) << "offset " << at;
      const bool escaped = special != '\x7f';
      EXPECT_EQ(out.size(),
                text.size() + 2 + (escaped ? (special < 0x20 && special != '\n' ? 5 : 1) : 0))
          << "offset " << at;
    }
  }
}

TEST(JsonTextNumber, ShortestPlainForm) {
  EXPECT_EQ(number_text(0.2), "0.2");
  EXPECT_EQ(number_text(1.0), "1");
  EXPECT_EQ(number_text(0.125), "0.125");
  EXPECT_EQ(number_text(0.0), "0");
  EXPECT_EQ(number_text(-2.5), "-2.5");
  EXPECT_EQ(number_text(1234567.0), "1234567");
  EXPECT_EQ(number_text(2.0 / 7.0), "0.2857142857142857");
  EXPECT_EQ(std::stod(number_text(1e300)), 1e300);
}

TEST(JsonTextNumber, NegativeZeroIsZeroAndNonFiniteIsNull) {
  EXPECT_EQ(number_text(-0.0), "0");
  EXPECT_EQ(number_text(std::numeric_limits<double>::quiet_NaN()), "null");
  EXPECT_EQ(number_text(std::numeric_limits<double>::infinity()), "null");
  EXPECT_EQ(number_text(-std::numeric_limits<double>::infinity()), "null");
}

}  // namespace
}  // namespace leadline::json_text
