// What counts as the same request under one Idempotency-Key: the same JSON value in any key
// order or spacing, numbers by value, strings after unescaping; anything else differs.
#include <gtest/gtest.h>

#include "api/request_fingerprint.hpp"

namespace leadline::api {
namespace {

std::string fp(std::string_view body, std::string_view path = "/api/v1/external/leads",
               std::string_view query = "") {
  return request_fingerprint("POST", path, query, body);
}

TEST(RequestFingerprint, KeyOrderAndWhiteSpaceDoNotMatter) {
  EXPECT_EQ(fp(R"({"a":1,"b":{"x":[1,2],"y":null}})"),
            fp(" {\n \"b\" : { \"y\":null, \"x\" : [ 1 , 2 ] },\t\"a\":1 } "));
}

TEST(RequestFingerprint, NumbersCompareByValueAndStringsAfterUnescaping) {
  EXPECT_EQ(fp(R"({"n":1})"), fp(R"({"n":1.0})"));
  EXPECT_EQ(fp(R"({"n":100})"), fp(R"({"n":1e2})"));
  EXPECT_EQ(fp(R"({"s":"A\/"})"), fp(R"({"s":"\u0041/"})"));
  EXPECT_NE(fp(R"({"n":1})"), fp(R"({"n":1.5})"));
  EXPECT_NE(fp(R"({"n":1})"), fp(R"({"n":"1"})"));
}

TEST(RequestFingerprint, ArraysKeepTheirOrder) {
  EXPECT_NE(fp(R"({"tags":["a","b"]})"), fp(R"({"tags":["b","a"]})"));
}

TEST(RequestFingerprint, PathQueryAndMethodCount) {
  const std::string body = R"({"a":1})";
  EXPECT_NE(fp(body), fp(body, "/api/v1/external/contacts"));
  EXPECT_NE(fp(body, "/api/v1/external/webhooks/rotate-secret", "id=1"),
            fp(body, "/api/v1/external/webhooks/rotate-secret", "id=2"));
  EXPECT_NE(request_fingerprint("POST", "/p", "", body),
            request_fingerprint("PUT", "/p", "", body));
}

TEST(RequestFingerprint, ABodyThatIsNotJsonComparesByteForByte) {
  EXPECT_EQ(fp("not json"), fp("not json"));
  EXPECT_NE(fp("not json"), fp("not  json"));
  EXPECT_NE(fp(""), fp("{}"));
  // A raw body never collides with a JSON body that canonicalises to the same text.
  EXPECT_NE(fp("{\"a\":1"), fp("{\"a\":1}"));
}

TEST(RequestFingerprint, CanonicalJsonSortsMembers) {
  EXPECT_EQ(canonical_json(R"({"b":[true,false],"a":-0.0,"c":2.5})"),
            std::optional<std::string>(R"({"a":0,"b":[true,false],"c":2.5})"));
  EXPECT_EQ(canonical_json("{"), std::nullopt);
}

}  // namespace
}  // namespace leadline::api
