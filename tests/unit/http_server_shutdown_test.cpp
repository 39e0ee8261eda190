// stop(): no new connections, the in-flight request still answered, idle connections closed,
// and run() returning.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <string>
#include <thread>

#include "http_test_support.hpp"

namespace leadline::http::testing {
namespace {

using namespace std::chrono_literals;

TEST(HttpServerShutdown, InFlightRequestIsAnsweredIdleOnesClosedAndRunReturns) {
  EchoHandler handler;
  auto config = test_config();
  config.shutdown_timeout = 30s;  // run() must return because the work is done, not by deadline
  RunningServer running(config, handler);

  RawClient idle(running.port());
  ASSERT_FALSE(idle.send("GET /first HTTP/1.1\r\nHost: t\r\n\r\n"));
  ASSERT_EQ(idle.read_reply().status, 200u);

  RawClient busy(running.port());
  ASSERT_FALSE(busy.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n"));
  ASSERT_TRUE(eventually([&] { return handler.slow_started.load() == 1; }));

  auto stopped = std::async(std::launch::async, [&] { return running.stop_and_wait(5s); });

  const Reply reply = busy.read_reply();
  ASSERT_FALSE(reply.error) << reply.error.message();
  EXPECT_EQ(reply.body, "GET /slow|127.0.0.1|1|");
  EXPECT_EQ(reply.header("connection"), "close");
  EXPECT_TRUE(busy.wait_for_close());
  busy.close();  // a client closing on EOF ends the server's lingering close at once
  EXPECT_TRUE(idle.wait_for_close());
  EXPECT_TRUE(stopped.get());
}

TEST(HttpServerShutdown, NoConnectionsAreAcceptedAfterStop) {
  EchoHandler handler;
  RunningServer running(test_config(), handler);
  ASSERT_TRUE(running.stop_and_wait());
  EXPECT_THROW(RawClient client(running.port()), std::runtime_error);
}

TEST(HttpServerShutdown, StopBeforeRunMakesRunReturn) {
  EchoHandler handler;
  Server server(test_config(), handler);
  server.listen();
  server.stop();
  server.stop();  // a second request is harmless
  auto running = std::async(std::launch::async, [&] { server.run(); });
  EXPECT_EQ(running.wait_for(5s), std::future_status::ready);
}

TEST(HttpServerShutdown, DeadlineEndsRunWhenARequestDoesNotFinish) {
  EchoHandler handler;
  auto config = test_config();
  config.shutdown_timeout = 100ms;
  RunningServer running(config, handler);
  RawClient client(running.port());
  // A body that never completes keeps the request in flight past the deadline.
  ASSERT_FALSE(client.send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\nabc"));
  std::this_thread::sleep_for(100ms);  // let the server read the head and wait for the body
  EXPECT_TRUE(running.stop_and_wait(5s));
}

}  // namespace
}  // namespace leadline::http::testing
