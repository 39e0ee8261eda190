// A private redis-server for one test: 127.0.0.1, a free port, no persistence, its files in a
// temporary directory; stop() and start() again on the same port simulate an outage.
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>

#include "support/server_process.hpp"

namespace leadline_test {

class RedisInstance {
 public:
  // Starts it; fails the running test (and throws) when redis-server is missing or does not
  // come up.
  RedisInstance();
  ~RedisInstance();
  RedisInstance(const RedisInstance&) = delete;
  RedisInstance& operator=(const RedisInstance&) = delete;

  // "redis://127.0.0.1:PORT"
  std::string url() const;
  unsigned short port() const { return port_; }
  bool running() const { return pid_ > 0; }

  // SIGTERM, then SIGKILL after a grace period; the data is gone afterwards.
  void stop();
  // Starts it again on the same port (after stop()); does nothing while it runs.
  void start();
  // SIGSTOP / SIGCONT: a Redis that accepts connections but never answers.
  void freeze();
  void thaw();

 private:
  void write_config() const;
  bool wait_until_ready();

  std::unique_ptr<TempDir> dir_;
  unsigned short port_ = 0;
  pid_t pid_ = -1;
};

}  // namespace leadline_test
