// The JSON writer's output must parse back to what was written, whatever the text holds.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include "api/json_writer.hpp"

namespace leadline::api {
namespace {

TEST(JsonWriter, EscapesAndRoundTrips) {
  std::string out;
  JsonWriter w(out);
  const std::string tricky = std::string("q\"b\\s/\n\r\t\b\f") + '\x01' + '\0' + "é\xe2\x80\xa8";
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

TEST(JsonWriter, NegativeZeroIsWrittenAsZero) {
  std::string out;
  JsonWriter(out).number(-0.0);
  EXPECT_EQ(out, "0");
}

}  // namespace
}  // namespace leadline::api
