// HTTP/1.1 server on Boost.Beast: a thread per core on one io_context, keep-alive and
// pipelining (requests on a connection are answered strictly in order), size limits and
// timeouts so that slow or hostile clients cannot hold resources.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "http/request.hpp"

namespace leadline::http {

struct ServerConfig {
  std::string host = "127.0.0.1";
  unsigned short port = 8080;            // 0 picks a free port
  unsigned threads = 0;                  // 0 = hardware concurrency
  unsigned blocking_threads = 64;        // run Handler::may_wait requests; bounds the waiting ones
  std::size_t header_limit = 16 * 1024;  // larger headers: 431
  std::size_t body_limit = 1024 * 1024;  // larger bodies: 413
  std::chrono::milliseconds header_timeout{10'000};  // whole request head must arrive in this
  std::chrono::milliseconds body_timeout{30'000};
  std::chrono::milliseconds idle_timeout{60'000};  // keep-alive connection with no request
  std::chrono::milliseconds write_timeout{30'000};
  std::size_t max_connections = 10'000;  // beyond it new connections get 503 and are closed
  std::chrono::milliseconds shutdown_timeout{5'000};  // stop(): longest wait for in-flight work
};

class Server {
 public:
  Server(ServerConfig config, Handler& handler);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds and listens; throws std::runtime_error naming the address when it cannot.
  // Returns the bound "HOST:PORT" (with the real port when 0 was asked).
  std::string listen();

  // Runs the worker threads; returns after stop() once in-flight requests are answered.
  void run();

  // Thread-safe and idempotent: stop accepting, finish in-flight requests, close idle
  // connections, then make run() return (after shutdown_timeout at the latest). It posts to the
  // io_context, so call it from an asio::signal_set handler, not a raw signal handler.
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace leadline::http
