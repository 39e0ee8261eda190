// Strict request-body JSON: what Boost.JSON would accept but the contract refuses.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

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

// A client fixing a hand-written body needs the place and the expectation, not "malformed".
TEST(JsonBody, SyntaxErrorsNameTheByteAndWhatWasExpected) {
  const std::string prefix = "request body is not valid JSON at byte ";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"a":1 "b":2})", "7: expected ',' or '}'"},
      {R"({"a":[1 2]})", "8: expected ',' or ']'"},
      {R"({"a":1,})", "7: expected a key in double quotes (no ',' before '}')"},
      {R"({"a":1,2})", "7: expected a key in double quotes"},
      {"{'a':1}", "1: expected a key in double quotes or '}'"},
      {"{/*c*/}", "1: expected a key in double quotes or '}'"},
      {R"({"a" 1})", "5: expected ':'"},
      {R"({"a":})", "5: expected a JSON value"},
      {R"({"a":tru})", "5: expected a JSON value"},
      {R"({"a":[})", "6: expected a JSON value or ']'"},
      {"[1,]", "3: expected a JSON value (no ',' before ']')"},
      {"x", "0: expected '{'"},
      {R"({"a":1.})", "7: expected a digit after '.'"},
      {R"({"a":-})", "6: expected a digit after '-'"},
      {R"({"a":1e})", "7: expected a digit in the exponent"},
      {R"({"a":"x\q"})", "8: expected an escape after '\\' (one of \" \\ / b f n r t u)"},
      {R"({"a":"\u12G4"})", "10: expected a hexadecimal digit in the \\u escape"},
      {R"({"a":"\ud800"})",
       "12: expected a \\u escape of a low surrogate (\\uDC00 to \\uDFFF) after the high one"},
      {R"({"a":"a\udc00b"})",
       "13: expected a UTF-16 surrogate pair (\\uD800 to \\uDBFF, then \\uDC00 to \\uDFFF)"},
      {"{\"a\":\"x\ny\"}",
       "7: expected the control character to be escaped in a string (as \\n, \\t or \\u0000)"},
      {R"({"a":1} x)", "8: expected nothing after the JSON value"},
      {R"({"a":1}})", "7: expected nothing after the JSON value"},
      {"[1] 2", "4: expected nothing after the JSON value"},
      // Offsets count bytes, not characters: "é" is two.
      {"{\"\xc3\xa9\":1 2}", "8: expected ',' or '}'"},
      {R"({"a":1)", "6: expected ',' or '}', but the request body ends there"},
      {"{", "1: expected a key in double quotes or '}', but the request body ends there"},
      {R"({"a":"x)", "7: expected the closing '\"' of the string, but the request body ends there"},
      {R"({"a)", "3: expected the closing '\"' of the key, but the request body ends there"},
      {R"({"a":nul)", "8: expected 'null', but the request body ends there"},
      {R"({"a":true)", "9: expected ',' or '}', but the request body ends there"},
      {R"({"a":[12)", "8: expected ',' or ']', but the request body ends there"},
      {R"({"a":"x\)",
       "8: expected an escape after '\\' (one of \" \\ / b f n r t u), but the "
       "request body ends there"},
  };
  for (const auto& [text, expected] : cases) {
    EXPECT_EQ(error_of(text), prefix + expected) << text;
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
