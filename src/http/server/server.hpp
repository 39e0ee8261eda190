// HTTP/1.1 server on Boost.Beast: a thread per core on one io_context, keep-alive and
// pipelining (requests on a connection are answered strictly in order), size limits and
// timeouts so that slow or hostile clients cannot hold resources.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "http/request.hpp"
#include "http/server_config.hpp"

namespace leadline::http {

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
