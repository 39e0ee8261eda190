// Requests that must meet inside the server: each on a connection of its own, opened up front,
// all sent at one moment.
#pragma once

#include <cstddef>
#include <latch>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "support/http_client.hpp"

namespace leadline_test {

// Calls send(i, client) for i in [0, n) on n threads, each with its own connected client,
// released together. Returns what each call threw ("" when nothing).
template <class Send>
std::vector<std::string> send_simultaneously(const std::string& host, unsigned short port,
                                             std::size_t n, Send send) {
  std::vector<std::unique_ptr<HttpClient>> clients;
  for (std::size_t i = 0; i < n; ++i) {
    clients.push_back(std::make_unique<HttpClient>(host, port));
    clients.back()->connect();
  }
  std::vector<std::string> failures(n);
  std::latch start(static_cast<std::ptrdiff_t>(n));
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < n; ++i) {
    threads.emplace_back([&, i] {
      start.arrive_and_wait();
      try {
        send(i, *clients[i]);
      } catch (const std::exception& e) {
        failures[i] = e.what();
      }
    });
  }
  for (auto& t : threads) t.join();
  return failures;
}

}  // namespace leadline_test
