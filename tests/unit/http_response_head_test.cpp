// Serialization of response heads: status line, framing fields owned by the server, and
// handler-supplied fields that could break the framing.
#include "http/server/response_head.hpp"

#include <gtest/gtest.h>

#include <string>

namespace leadline::http {
namespace {

bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

TEST(ResponseHead, WritesStatusLineTypeLengthAndDate) {
  Response response;
  response.status = 201;
  response.body = "{}";
  ResponseHead head;
  const std::string text(head.serialize(response, ResponseFraming{}));
  EXPECT_EQ(text.rfind("HTTP/1.1 201 Created\r\n", 0), 0u);
  EXPECT_TRUE(contains(text, "\r\nContent-Type: application/json; charset=utf-8\r\n"));
  EXPECT_TRUE(contains(text, "\r\nContent-Length: 2\r\n"));
  EXPECT_TRUE(contains(text, " GMT\r\n"));
  EXPECT_FALSE(contains(text, "Connection:"));
  EXPECT_TRUE(text.ends_with("\r\n\r\n"));
}

TEST(ResponseHead, AnnouncesHowTheConnectionContinues) {
  Response response;
  ResponseHead head;
  EXPECT_TRUE(contains(head.serialize(response, ResponseFraming{.keep_alive = false}),
                       "Connection: close\r\n"));
  EXPECT_TRUE(contains(head.serialize(response, ResponseFraming{.announce_keep_alive = true}),
                       "Connection: keep-alive\r\n"));
}

TEST(ResponseHead, DropsHandlerFramingFieldsAndFieldsThatWouldSplitTheResponse) {
  Response response;
  response.body = "abc";
  response.headers = {{"Content-Length", "99"},
                      {"Connection", "keep-alive"},
                      {"X-Evil", "a\r\nSet-Cookie: x=1"},
                      {"Bad Name", "v"},
                      {"Allow", "GET, POST"}};
  ResponseHead head;
  const std::string text(head.serialize(response, ResponseFraming{}));
  EXPECT_TRUE(contains(text, "Content-Length: 3\r\n"));
  EXPECT_FALSE(contains(text, "99"));
  EXPECT_FALSE(contains(text, "Connection:"));
  EXPECT_FALSE(contains(text, "Set-Cookie"));
  EXPECT_FALSE(contains(text, "Bad Name"));
  EXPECT_TRUE(contains(text, "Allow: GET, POST\r\n"));
}

TEST(ResponseHead, NoContentHasNoLengthAndNoBody) {
  Response response;
  response.status = 204;
  ResponseHead head;
  EXPECT_FALSE(contains(head.serialize(response, ResponseFraming{}), "Content-Length"));
  EXPECT_FALSE(ResponseHead::sends_body(204, false));
  EXPECT_FALSE(ResponseHead::sends_body(200, true));
  EXPECT_TRUE(ResponseHead::sends_body(200, false));
}

TEST(ResponseHead, InvalidStatusIsSentAs500) {
  Response response;
  response.status = 42;
  ResponseHead head;
  EXPECT_EQ(std::string(head.serialize(response, ResponseFraming{})).rfind("HTTP/1.1 500 ", 0), 0u);
  EXPECT_TRUE(ResponseHead::sends_body(42, false));
}

}  // namespace
}  // namespace leadline::http
