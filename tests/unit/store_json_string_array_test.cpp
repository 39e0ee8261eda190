// The JSON text tags and IP lists are stored as: round trips and escapes.
#include <gtest/gtest.h>

#include "store/records/json_string_array.hpp"

namespace leadline::store {
namespace {

TEST(JsonStringArrayTest, RoundTrips) {
  const std::vector<std::vector<std::string>> cases = {{},
                                                       {""},
                                                       {"a", "b"},
                                                       {"quote \" backslash \\ slash /"},
                                                       {"tab\tnew\nline\x01"},
                                                       {"ünïcödé", "😀"}};
  for (const auto& values : cases) {
    EXPECT_EQ(decode_string_array(encode_string_array(values)), values);
  }
  EXPECT_EQ(encode_string_array({"a\"b", "\x01"}), R"(["a\"b","\u0001"])");
}

TEST(JsonStringArrayTest, ReadsEscapesWrittenByOthers) {
  EXPECT_EQ(decode_string_array(R"( [ "\u00fc" , "\ud83d\ude00", "\/\b\f\r" ] )"),
            (std::vector<std::string>{"ü", "😀", "/\b\f\r"}));
}

TEST(JsonStringArrayTest, DecodingIntoARecordReplacesWhatItHeld) {
  std::vector<std::string> into = {"old one", "old two", "old three"};
  decode_string_array_into(R"(["a\"b", "c"])", into);
  EXPECT_EQ(into, (std::vector<std::string>{"a\"b", "c"}));
  decode_string_array_into("[]", into);
  EXPECT_TRUE(into.empty());
  decode_string_array_into(R"(["x","y","z","\u00fc"])", into);
  EXPECT_EQ(into, (std::vector<std::string>{"x", "y", "z", "ü"}));
}

TEST(JsonStringArrayTest, RejectsWhatIsNotAnArrayOfStrings) {
  for (const char* bad : {"", "{}", "[1]", "[\"a\"", "[\"a\",]", "[\"\\ud800\"]", "[] x"}) {
    EXPECT_THROW(decode_string_array(bad), std::runtime_error) << bad;
  }
}

}  // namespace
}  // namespace leadline::store
