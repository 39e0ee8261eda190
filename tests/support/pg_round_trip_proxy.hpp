// A loopback TCP proxy in front of a PostgreSQL server that counts the round trips its clients
// make: each Sync ('S') and each simple Query ('Q') message a client sends asks the server to
// answer everything sent before it, so one of them is one round trip.
#pragma once

#include <atomic>
#include <memory>
#include <string>

namespace leadline_test {

class PgRoundTripProxy {
 public:
  // Listens on 127.0.0.1 (a free port) and forwards every connection to `server_url`'s host and
  // port (postgres://USER@HOST:PORT[/...]).
  explicit PgRoundTripProxy(const std::string& server_url);
  ~PgRoundTripProxy();
  PgRoundTripProxy(const PgRoundTripProxy&) = delete;
  PgRoundTripProxy& operator=(const PgRoundTripProxy&) = delete;

  // `url` (postgres://USER@HOST:PORT/DB) pointing at the proxy instead.
  std::string through(const std::string& url) const;

  // Round trips every client has made so far.
  long round_trips() const;

 private:
  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace leadline_test
