// The operator command's --json text: Boost.JSON values with doubles written as the API writes
// them, everything else as compact JSON.
#include "cli/output.hpp"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <sstream>

namespace leadline::cli {
namespace {

namespace json = boost::json;

TEST(RenderJson, DoublesInTheShortestPlainForm) {
  const json::value v = {{"error_rate", 0.2}, {"one", 1.0},  {"eighth", 0.125},   {"zero", 0.0},
                         {"neg", -0.0},       {"big", 1e21}, {"list", {0.5, 2.0}}};
  EXPECT_EQ(render_json(v),
            R"({"error_rate":0.2,"one":1,"eighth":0.125,"zero":0,"neg":0,"big":1e+21,)"
            R"("list":[0.5,2]})");
}

TEST(RenderJson, EverythingElseAsCompactJson) {
  const json::value v = {{"s", "a\"b\\c\n\x01\xc3\xa9"},
                         {"n", -5},
                         {"u", std::uint64_t{18446744073709551615u}},
                         {"t", true},
                         {"f", false},
                         {"null", nullptr},
                         {"empty", json::object()},
                         {"none", json::array()},
                         {"nested", {{"k\"ey", {1, "x", nullptr}}}}};
  const std::string text = render_json(v);
  EXPECT_EQ(text, R"({"s":"a\"b\\c\n\u0001)"
                  "\xc3\xa9"
                  R"(","n":-5,"u":18446744073709551615,"t":true,"f":false,"null":null,)"
                  R"("empty":{},"none":[],"nested":{"k\"ey":[1,"x",null]}})");
  EXPECT_EQ(json::parse(text), v);
}

TEST(OutputEmit, JsonIsOneLineOfRenderJson) {
  std::ostringstream stream;
  Output(true, stream).emit(Report{.data = {{"error_rate", 0.2}}});
  EXPECT_EQ(stream.str(), "{\"error_rate\":0.2}\n");
}

}  // namespace
}  // namespace leadline::cli
