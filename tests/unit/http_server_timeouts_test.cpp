// Timeouts that keep slow or silent clients from holding connections: head, body and idle
// keep-alive timeouts.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "http_test_support.hpp"

namespace leadline::http::testing {
namespace {

using namespace std::chrono_literals;

TEST(HttpServerTimeouts, HeadTricklingInIsCutOffWhileOthersAreServed) {
  EchoHandler handler;
  auto config = test_config();
  config.header_timeout = 300ms;
  RunningServer running(config, handler);

  bool closed = false;
  std::thread slowloris([&] {
    RawClient slow(running.port());
    if (slow.send("GET / HTTP/1.1\r\n")) return;
    // One header byte every 100 ms, never finishing the head; per-byte timeouts would never fire.
    for (int i = 0; i < 30; ++i) {
      if (slow.send("a")) break;  // the server has closed and reset the connection
      std::this_thread::sleep_for(100ms);
    }
    closed = slow.wait_for_close();
  });

  RawClient other(running.port());
  std::this_thread::sleep_for(150ms);
  ASSERT_FALSE(other.send("GET /other HTTP/1.1\r\nHost: t\r\n\r\n"));
  EXPECT_EQ(other.read_reply().body, "GET /other|127.0.0.1|1|");

  slowloris.join();
  EXPECT_TRUE(closed);
}

TEST(HttpServerTimeouts, BodyTricklingInIsCutOff) {
  EchoHandler handler;
  auto config = test_config();
  config.body_timeout = 200ms;
  RunningServer running(config, handler);
  RawClient client(running.port());
  ASSERT_FALSE(client.send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\nabc"));
  EXPECT_TRUE(client.wait_for_close());
}

TEST(HttpServerTimeouts, IdleKeepAliveConnectionIsClosed) {
  EchoHandler handler;
  auto config = test_config();
  config.idle_timeout = 200ms;
  RunningServer running(config, handler);
  RawClient client(running.port());
  ASSERT_FALSE(client.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n"));
  const Reply reply = client.read_reply();
  EXPECT_EQ(reply.status, 200u);
  EXPECT_TRUE(reply.keep_alive);
  EXPECT_TRUE(client.wait_for_close());
}

TEST(HttpServerTimeouts, IdleTimeoutDoesNotCutAnActiveConnection) {
  EchoHandler handler;
  auto config = test_config();
  config.idle_timeout = 300ms;
  RunningServer running(config, handler);
  RawClient client(running.port());
  // Four requests 100 ms apart outlast one idle period, but no single gap reaches it.
  for (int i = 0; i < 4; ++i) {
    ASSERT_FALSE(client.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n"));
    ASSERT_EQ(client.read_reply().status, 200u);
    std::this_thread::sleep_for(100ms);
  }
}

}  // namespace
}  // namespace leadline::http::testing
