// The server's own refusals: oversized bodies (413) and heads (431), malformed HTTP (400) and
// connections beyond the limit (503), each in the handler's envelope and followed by a close.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "http_test_support.hpp"

namespace leadline::http::testing {
namespace {

constexpr std::size_t kMiB = 1024 * 1024;

TEST(HttpServerLimits, DeclaredBodyOverTheLimitIs413ThenClose) {
  EchoHandler handler;
  RunningServer running(test_config(), handler);
  RawClient client(running.port());
  ASSERT_FALSE(client.send("POST /big HTTP/1.1\r\nHost: t\r\nContent-Length: " +
                           std::to_string(2 * kMiB) + "\r\n\r\n" + std::string(64 * 1024, 'a')));
  const Reply reply = client.read_reply();
  ASSERT_FALSE(reply.error) << reply.error.message();
  EXPECT_EQ(reply.status, 413u);
  EXPECT_EQ(reply.body, refusal_body("body_too_large", 1048576));
  EXPECT_EQ(reply.header("connection"), "close");
  EXPECT_EQ(reply.header("content-type"), "application/json; charset=utf-8");
  EXPECT_TRUE(client.wait_for_close());
}

TEST(HttpServerLimits, BodyOfExactlyTheLimitIsAccepted) {
  EchoHandler handler;
  RunningServer running(test_config(), handler);
  RawClient client(running.port());
  ASSERT_FALSE(client.send("POST /max HTTP/1.1\r\nHost: t\r\nContent-Length: " +
                           std::to_string(kMiB) + "\r\n\r\n" + std::string(kMiB, 'a')));
  const Reply reply = client.read_reply();
  ASSERT_FALSE(reply.error) << reply.error.message();
  EXPECT_EQ(reply.status, 200u);
}

TEST(HttpServerLimits, ChunkedBodyOverTheLimitIs413ThenClose) {
  EchoHandler handler;
  RunningServer running(test_config(), handler);
  RawClient client(running.port());
  std::string request = "POST /chunks HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n";
  const std::string chunk = "10000\r\n" + std::string(0x10000, 'a') + "\r\n";
  for (int i = 0; i < 17; ++i) request += chunk;  // 17 x 64 KiB: just over 1 MiB
  request += "0\r\n\r\n";
  ASSERT_FALSE(client.send(request));
  const Reply reply = client.read_reply();
  ASSERT_FALSE(reply.error) << reply.error.message();
  EXPECT_EQ(reply.status, 413u);
  EXPECT_EQ(reply.header("connection"), "close");
  EXPECT_TRUE(client.wait_for_close());
}

TEST(HttpServerLimits, HeadOverTheLimitIs431ThenClose) {
  EchoHandler handler;
  RunningServer running(test_config(), handler);
  RawClient client(running.port());
  ASSERT_FALSE(
      client.send("GET / HTTP/1.1\r\nHost: t\r\nX-Big: " + std::string(20'000, 'b') + "\r\n\r\n"));
  const Reply reply = client.read_reply();
  ASSERT_FALSE(reply.error) << reply.error.message();
  EXPECT_EQ(reply.status, 431u);
  EXPECT_EQ(reply.body, refusal_body("headers_too_large", 16384));
  EXPECT_TRUE(client.wait_for_close());
}

TEST(HttpServerLimits, GarbageRequestLineIs400ThenClose) {
  EchoHandler handler;
  RunningServer running(test_config(), handler);
  RawClient client(running.port());
  ASSERT_FALSE(client.send("THIS IS NOT HTTP\r\n\r\n"));
  const Reply reply = client.read_reply();
  ASSERT_FALSE(reply.error) << reply.error.message();
  EXPECT_EQ(reply.status, 400u);
  EXPECT_EQ(reply.body, refusal_body("malformed"));
  EXPECT_TRUE(client.wait_for_close());
}

TEST(HttpServerLimits, MalformedChunkIs400) {
  EchoHandler handler;
  RunningServer running(test_config(), handler);
  RawClient client(running.port());
  ASSERT_FALSE(
      client.send("POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n"));
  EXPECT_EQ(client.read_reply().status, 400u);
  EXPECT_TRUE(client.wait_for_close());
}

TEST(HttpServerLimits, ConnectionBeyondTheLimitGets503AndIsClosed) {
  EchoHandler handler;
  auto config = test_config();
  config.max_connections = 2;
  RunningServer running(config, handler);
  std::vector<std::unique_ptr<RawClient>> admitted;
  for (int i = 0; i < 2; ++i) {
    admitted.push_back(std::make_unique<RawClient>(running.port()));
    ASSERT_FALSE(admitted.back()->send("GET / HTTP/1.1\r\nHost: t\r\n\r\n"));
    ASSERT_EQ(admitted.back()->read_reply().status, 200u);
  }

  RawClient third(running.port());
  const Reply refused = third.read_reply();  // nothing sent: the answer comes unasked
  ASSERT_FALSE(refused.error) << refused.error.message();
  EXPECT_EQ(refused.status, 503u);
  EXPECT_EQ(refused.body, refusal_body("over_connection_limit"));
  EXPECT_EQ(refused.header("connection"), "close");
  EXPECT_TRUE(third.wait_for_close());

  // A freed slot is available again once the server has noticed the close.
  admitted.front()->close();
  EXPECT_TRUE(eventually([&] {
    RawClient next(running.port());
    if (next.send("GET /again HTTP/1.1\r\nHost: t\r\n\r\n")) return false;
    return next.read_reply().status == 200u;
  }));
}

}  // namespace
}  // namespace leadline::http::testing
