// The HTTP server's limits and timeouts: a plain struct, so that settings code and tests can
// name them without the Beast server.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace leadline::http {

struct ServerConfig {
  std::string host = "127.0.0.1";
  unsigned short port = 8080;            // 0 picks a free port
  unsigned threads = 0;                  // 0 = hardware concurrency
  unsigned blocking_threads = 64;        // run Waiting::kBlocking requests; bounds those waiting
  std::size_t header_limit = 16 * 1024;  // larger headers: 431
  std::size_t body_limit = 1024 * 1024;  // larger bodies: 413
  std::chrono::milliseconds header_timeout{10'000};  // whole request head must arrive in this
  std::chrono::milliseconds body_timeout{30'000};
  std::chrono::milliseconds idle_timeout{60'000};  // keep-alive connection with no request
  std::chrono::milliseconds write_timeout{30'000};
  std::size_t max_connections = 10'000;  // beyond it new connections get 503 and are closed
  std::chrono::milliseconds shutdown_timeout{5'000};  // stop(): longest wait for in-flight work
};

}  // namespace leadline::http
