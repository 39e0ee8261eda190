// The server's everyday behaviour: binding, handing requests to the handler, keep-alive,
// pipelining, connection management and handler failures.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "http_test_support.hpp"

namespace leadline::http::testing {
namespace {

const std::string kGet = "GET /leads?id=1 HTTP/1.1\r\nHost: test\r\n\r\n";

TEST(HttpServer, ListenReportsTheBoundAddressWithTheRealPort) {
  EchoHandler handler;
  RunningServer running(test_config(), handler);
  EXPECT_EQ(running.address().rfind("127.0.0.1:", 0), 0u) << running.address();
  EXPECT_NE(running.port(), 0);
}

TEST(HttpServer, Ipv6AddressIsShownInBrackets) {
  EchoHandler handler;
  auto config = test_config();
  config.host = "::1";
  Server server(config, handler);
  std::string address;
  try {
    address = server.listen();
  } catch (const std::runtime_error&) {
    GTEST_SKIP() << "no IPv6 loopback on this machine";
  }
  EXPECT_EQ(address.rfind("[::1]:", 0), 0u) << address;
}

TEST(HttpServer, BindFailureThrowsNamingTheAddress) {
  EchoHandler handler;
  RunningServer running(test_config(), handler);
  auto config = test_config();
  config.port = running.port();
  Server second(config, handler);
  try {
    second.listen();
    FAIL() << "listening twice on one port succeeded";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find(running.address()), std::string::npos) << error.what();
  }
}

TEST(HttpServer, GetIsHandedToTheHandler) {
  EchoHandler handler;
  RunningServer running(test_config(), handler);
  RawClient client(running.port());
  ASSERT_FALSE(client.send("GET /leads?id=1 HTTP/1.1\r\nHost: test\r\nX-Echo: hello\r\n\r\n"));
  const Reply reply = client.read_reply();
  ASSERT_FALSE(reply.error) << reply.error.message();
  EXPECT_EQ(reply.status, 200u);
  EXPECT_EQ(reply.body, "GET /leads?id=1|127.0.0.1|2|");
  EXPECT_EQ(reply.header("content-type"), "text/plain");
  EXPECT_EQ(reply.header("content-length"), std::to_string(reply.body.size()));
  EXPECT_EQ(reply.header("x-echoed"), "hello");
  EXPECT_FALSE(reply.header("date").empty());
  EXPECT_TRUE(reply.keep_alive);
}

TEST(HttpServer, PostBodyReachesTheHandler) {
  EchoHandler handler;
  RunningServer running(test_config(), handler);
  RawClient client(running.port());
  ASSERT_FALSE(
      client.send("POST /leads HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                  "Content-Length: 13\r\n\r\n{\"name\":\"x\"}\n"));
  const Reply reply = client.read_reply();
  ASSERT_FALSE(reply.error) << reply.error.message();
  EXPECT_EQ(reply.body, "POST /leads|127.0.0.1|3|{\"name\":\"x\"}\n");
}

TEST(HttpServer, ChunkedBodyIsAssembled) {
  EchoHandler handler;
  RunningServer running(test_config(), handler);
  RawClient client(running.port());
  ASSERT_FALSE(
      client.send("POST /c HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
                  "3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"));
  const Reply reply = client.read_reply();
  ASSERT_FALSE(reply.error) << reply.error.message();
  EXPECT_EQ(reply.body, "POST /c|127.0.0.1|2|abcde");
}

TEST(HttpServer, KeepAliveServesSeveralRequestsOnOneConnection) {
  EchoHandler handler;
  RunningServer running(test_config(), handler);
  RawClient client(running.port());
  for (int i = 0; i < 3; ++i) {
    const std::string target = "/r" + std::to_string(i);
    ASSERT_FALSE(client.send("GET " + target + " HTTP/1.1\r\nHost: t\r\n\r\n"));
    const Reply reply = client.read_reply();
    ASSERT_FALSE(reply.error) << reply.error.message();
    EXPECT_EQ(reply.body, "GET " + target + "|127.0.0.1|1|");
  }
}

TEST(HttpServer, PipelinedRequestsAreAnsweredInOrder) {
  EchoHandler handler;
  RunningServer running(test_config(), handler);
  RawClient client(running.port());
  ASSERT_FALSE(
      client.send("GET /1 HTTP/1.1\r\nHost: t\r\n\r\n"
                  "POST /2 HTTP/1.1\r\nHost: t\r\nContent-Length: 4\r\n\r\nbody"
                  "GET /3 HTTP/1.1\r\nHost: t\r\n\r\n"));
  EXPECT_EQ(client.read_reply().body, "GET /1|127.0.0.1|1|");
  EXPECT_EQ(client.read_reply().body, "POST /2|127.0.0.1|2|body");
  EXPECT_EQ(client.read_reply().body, "GET /3|127.0.0.1|1|");
}

// A response larger than the socket's send buffer is first written in part without waiting;
// the rest must follow, and the connection must serve the next request after it.
TEST(HttpServer, ResponseLargerThanTheSendBufferArrivesWholeAndTheConnectionGoesOn) {
  EchoHandler handler;
  RunningServer running(test_config(), handler);
  RawClient client(running.port());
  std::string body(900 * 1024, 'x');
  for (std::size_t i = 0; i < body.size(); i += 997) body[i] = static_cast<char>('a' + i % 26);
  ASSERT_FALSE(client.send("POST /big HTTP/1.1\r\nHost: t\r\nContent-Length: " +
                           std::to_string(body.size()) + "\r\n\r\n" + body));
  const Reply big = client.read_reply();
  ASSERT_FALSE(big.error) << big.error.message();
  EXPECT_EQ(big.body, "POST /big|127.0.0.1|2|" + body);
  ASSERT_FALSE(client.send("GET /after HTTP/1.1\r\nHost: t\r\n\r\n"));
  EXPECT_EQ(client.read_reply().body, "GET /after|127.0.0.1|1|");
}

TEST(HttpServer, ConnectionCloseIsHonoured) {
  EchoHandler handler;
  RunningServer running(test_config(), handler);
  RawClient client(running.port());
  ASSERT_FALSE(client.send("GET / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"));
  const Reply reply = client.read_reply();
  ASSERT_FALSE(reply.error) << reply.error.message();
  EXPECT_EQ(reply.header("connection"), "close");
  EXPECT_TRUE(client.wait_for_close());
}

TEST(HttpServer, Http10ClosesUnlessAskedToKeepAlive) {
  EchoHandler handler;
  RunningServer running(test_config(), handler);
  {
    RawClient client(running.port());
    ASSERT_FALSE(client.send("GET /a HTTP/1.0\r\n\r\n"));
    EXPECT_EQ(client.read_reply().status, 200u);
    EXPECT_TRUE(client.wait_for_close());
  }
  RawClient client(running.port());
  ASSERT_FALSE(client.send("GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"));
  const Reply first = client.read_reply();
  EXPECT_EQ(first.header("connection"), "keep-alive");
  ASSERT_FALSE(client.send("GET /b HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"));
  EXPECT_EQ(client.read_reply().body, "GET /b|127.0.0.1|1|");
}

TEST(HttpServer, HandlerCanCloseTheConnection) {
  EchoHandler handler;
  RunningServer running(test_config(), handler);
  RawClient client(running.port());
  ASSERT_FALSE(client.send("GET /close HTTP/1.1\r\nHost: t\r\n\r\n"));
  const Reply reply = client.read_reply();
  EXPECT_EQ(reply.status, 200u);
  EXPECT_EQ(reply.header("connection"), "close");
  EXPECT_TRUE(client.wait_for_close());
}

TEST(HttpServer, HeadAnswerCarriesTheLengthButNoBody) {
  EchoHandler handler;
  RunningServer running(test_config(), handler);
  RawClient client(running.port());
  ASSERT_FALSE(client.send("HEAD /h HTTP/1.1\r\nHost: t\r\n\r\n" + kGet));
  const Reply head = client.read_reply(true);
  ASSERT_FALSE(head.error) << head.error.message();
  EXPECT_EQ(head.header("content-length"),
            std::to_string(std::string("HEAD /h|127.0.0.1|1|").size()));
  // The next reply parses cleanly only if no body bytes followed the HEAD answer.
  EXPECT_EQ(client.read_reply().body, "GET /leads?id=1|127.0.0.1|1|");
}

TEST(HttpServer, ExpectContinueGetsAnInterimAnswerBeforeTheBody) {
  EchoHandler handler;
  RunningServer running(test_config(), handler);
  RawClient client(running.port());
  ASSERT_FALSE(client.send(
      "POST /e HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n"));
  EXPECT_EQ(client.read_reply().status, 100u);
  ASSERT_FALSE(client.send("ok"));
  EXPECT_EQ(client.read_reply().body, "POST /e|127.0.0.1|3|ok");
}

TEST(HttpServer, HandlerExceptionBecomes500AndTheConnectionKeepsWorking) {
  EchoHandler handler;
  RunningServer running(test_config(), handler);
  RawClient client(running.port());
  ASSERT_FALSE(client.send("GET /throw HTTP/1.1\r\nHost: t\r\n\r\n"));
  const Reply failed = client.read_reply();
  ASSERT_FALSE(failed.error) << failed.error.message();
  EXPECT_EQ(failed.status, 500u);
  EXPECT_EQ(failed.body, refusal_body("handler_failed"));
  EXPECT_EQ(failed.header("content-type"), "application/json; charset=utf-8");
  ASSERT_FALSE(client.send(kGet));
  EXPECT_EQ(client.read_reply().status, 200u);
}

}  // namespace
}  // namespace leadline::http::testing
