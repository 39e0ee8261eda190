// Strict request-body JSON: what Boost.JSON would accept but the contract refuses.
#include <gtest/gtest.h>

#include "api/json_body.hpp"

namespace leadline::api {
namespace {

bool accepted(std::string_view text) {
  return std::holds_alternative<boost::json::object>(parse_json_object(text));
}

std::string error_of(std::string_view text) {
  auto r = parse_json_object(text);
  return std::holds_alternative<BadRequest>(r) ? std::get<BadRequest>(r).message : "";
}

TEST(JsonBody, AcceptsAnObject) {
  EXPECT_TRUE(accepted(R"({"a":1,"b":[1,2,{"c":null}],"d":"é"})"));
  EXPECT_TRUE(accepted("  {}  "));
}

TEST(JsonBody, RejectsNonObjects) {
  for (const char* text : {"[]", "1", "\"x\"", "null", "true", "", "   "}) {
    EXPECT_NE(error_of(text).find("must be a JSON object"), std::string::npos) << text;
  }
}

TEST(JsonBody, RejectsMalformed) {
  for (const char* text : {"{", "{\"a\":}", "{\"a\":1,}", "{'a':1}", "{\"a\":1} x", "{/*c*/}"}) {
    EXPECT_NE(error_of(text).find("not valid JSON"), std::string::npos) << text;
  }
}

TEST(JsonBody, RejectsDuplicateKeysAtAnyDepth) {
  EXPECT_NE(error_of(R"({"a":1,"a":2})").find("duplicate key 'a'"), std::string::npos);
  EXPECT_NE(error_of(R"({"x":{"b":1,"b":1}})").find("duplicate key 'b'"), std::string::npos);
  EXPECT_TRUE(accepted(R"({"x":{"b":1},"y":{"b":1}})"));
}

TEST(JsonBody, RejectsOutOfRangeNumbers) {
  EXPECT_FALSE(error_of(R"({"n":1e400})").empty());
  EXPECT_FALSE(error_of(R"({"n":-1e400})").empty());
  EXPECT_TRUE(accepted(R"({"n":-0})"));
}

TEST(JsonBody, RejectsDeepNesting) {
  const std::string deep = "{\"a\":" + std::string(10000, '[') + std::string(10000, ']') + "}";
  EXPECT_NE(error_of(deep).find("deep"), std::string::npos);
}

TEST(JsonBody, RejectsInvalidUtf8) {
  EXPECT_NE(error_of("{\"a\":\"\xff\"}").find("UTF-8"), std::string::npos);
  EXPECT_NE(error_of("{\"a\":\"\xed\xa0\x80\"}").find("UTF-8"), std::string::npos);
}

TEST(JsonBody, KeepsEscapedNulAsData) {
  auto r = parse_json_object(R"({"a":"x\u0000y"})");
  ASSERT_TRUE(std::holds_alternative<boost::json::object>(r));
  EXPECT_EQ(std::get<boost::json::object>(r).at("a").as_string().size(), 3u);
}

}  // namespace
}  // namespace leadline::api
