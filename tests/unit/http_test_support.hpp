// Test doubles for the HTTP layer's tests: an echoing Handler, a Server running on a background
// thread, and a raw-socket client whose every operation gives up after a few seconds.
#pragma once

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/system/error_code.hpp>
#include <chrono>
#include <functional>
#include <future>
#include <map>
#include <string>
#include <string_view>

#include "http/request.hpp"
#include "http/server/server.hpp"

namespace leadline::http::testing {

// Echoes what it was handed as "METHOD TARGET|PEER|HEADER COUNT|BODY". Special targets:
// /throw throws, /slow sleeps 200 ms, /close asks for the connection to be closed.
class EchoHandler : public Handler {
 public:
  void handle(const Request& request, Response& response) override;
  // {"refused":"<kind>","limit":N} with the kind's usual status, so tests see what was passed.
  void render_refusal(const Refusal& refusal, const Request* head, Response& response) override;

  std::atomic<int> slow_started{0};
};

ServerConfig test_config();

// What EchoHandler renders for a refusal.
std::string refusal_body(std::string_view kind, std::size_t limit = 0);

class RunningServer {
 public:
  RunningServer(ServerConfig config, Handler& handler);
  ~RunningServer();
  RunningServer(const RunningServer&) = delete;
  RunningServer& operator=(const RunningServer&) = delete;

  const std::string& address() const { return address_; }
  unsigned short port() const { return port_; }
  Server& server() { return server_; }

  // stop() and wait for run() to return; false when it did not return within `limit`.
  bool stop_and_wait(std::chrono::milliseconds limit = std::chrono::seconds(5));

 private:
  Server server_;
  std::string address_;
  unsigned short port_ = 0;
  std::future<void> running_;
};

struct Reply {
  boost::system::error_code error;
  unsigned status = 0;
  std::string body;
  std::map<std::string, std::string> headers;  // names in lower case
  bool keep_alive = false;

  std::string header(const std::string& lower_name) const;
};

class RawClient {
 public:
  explicit RawClient(unsigned short port);

  boost::system::error_code send(std::string_view bytes);
  // `head_request`: the reply describes a body that is not sent.
  Reply read_reply(bool head_request = false);
  // True when the server ends the connection (EOF or reset) before the client gives up.
  bool wait_for_close();
  void close();

 private:
  void run();

  boost::asio::io_context ioc_;
  boost::beast::tcp_stream stream_;
  boost::beast::flat_buffer buffer_;
};

// Retries a condition for up to two seconds: for state the server updates asynchronously.
bool eventually(const std::function<bool()>& condition);

}  // namespace leadline::http::testing
