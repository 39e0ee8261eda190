// A real HTTP/1.1 server on 127.0.0.1:0 that plays the receiving end of webhooks in the
// black-box suites: it records every request it reads (method, target, headers, body, arrival
// time) and answers as the test programmed it, per path: a default answer, a queue of answers
// used one per request (500, 500, then the default), extra headers (Retry-After, Location) and a
// delay before answering (to make the sender time out), optionally plus a random delay for every
// answer (to widen the window in which deliveries are in flight). It counts the connections it
// accepted and can hold every answer until the test releases them, so that a test knows which
// deliveries were in flight (unanswered) when it killed the sender. Concurrent connections and
// keep-alive are served by its own threads; several receivers may run in one test.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "support/http_client.hpp"

namespace leadline_test {

// One request as the receiver read it.
struct ReceivedRequest {
  std::string method;
  std::string target;  // as sent: path plus query
  std::string path;    // target without the query
  Headers headers;     // in arrival order, names as sent
  std::string body;
  std::chrono::steady_clock::time_point arrived;
  std::chrono::system_clock::time_point arrived_wall;
  unsigned answered_status = 0;  // the status the receiver chose for it
  unsigned short peer_port = 0;  // the sender's port of the connection it came on

  // Header lookup, ASCII case-insensitive; "" when absent.
  bool has_header(std::string_view name) const;
  std::string header(std::string_view name) const;
  std::vector<std::string> header_values(std::string_view name) const;
  // header("webhook-id").
  std::string webhook_id() const;
};

// What the receiver answers to one request.
struct ReceiverAnswer {
  unsigned status = 200;
  Headers headers;                     // e.g. {{"Retry-After", "1"}} or {{"Location", url}}
  std::string body = "ok";             // sent as text/plain
  std::chrono::milliseconds delay{0};  // waited after reading the request, before answering
};

class WebhookReceiver {
 public:
  // Listens on 127.0.0.1 with a port the system chooses; `threads` serve the connections.
  explicit WebhookReceiver(unsigned threads = 4);
  ~WebhookReceiver();
  WebhookReceiver(const WebhookReceiver&) = delete;
  WebhookReceiver& operator=(const WebhookReceiver&) = delete;

  unsigned short port() const { return port_; }
  // "http://127.0.0.1:PORT/path" (`path` starts with '/').
  std::string url(std::string_view path = "/hook") const;

  // The answer to requests of a path whose queue is empty (every path: `path` empty).
  void set_default(ReceiverAnswer answer, const std::string& path = "");
  void set_default_status(unsigned status, const std::string& path = "");
  // Answers used once each, in order, by the next requests to `path`, before the default.
  void enqueue(const std::string& path, ReceiverAnswer answer);
  void enqueue_statuses(const std::string& path, const std::vector<unsigned>& statuses);
  // Every answer from now on waits a further random time up to `max` (0: none).
  void set_random_delay(std::chrono::milliseconds max);

  // Every request read so far (of one path when `path` is non-empty), oldest first.
  std::vector<ReceivedRequest> requests(const std::string& path = "") const;
  std::size_t count(const std::string& path = "") const;
  // Waits until at least n requests (of the path) arrived or the timeout passed; returns whether
  // they did.
  bool wait_for(std::size_t n, std::chrono::milliseconds timeout,
                const std::string& path = "") const;
  // Waits as wait_for and returns what arrived by then (possibly fewer than n).
  std::vector<ReceivedRequest> wait_for_requests(std::size_t n, std::chrono::milliseconds timeout,
                                                 const std::string& path = "") const;
  // Waits until `done` holds for the requests received so far; returns whether it did.
  bool wait_until(const std::function<bool(const std::vector<ReceivedRequest>&)>& done,
                  std::chrono::milliseconds timeout) const;
  // How many requests arrived with each webhook-id.
  std::map<std::string, int> counts_by_webhook_id() const;
  // Connections accepted so far.
  int connections() const;
  // Forgets the recorded requests (the programmed answers stay).
  void clear();

  // From now on, requests are recorded but not answered until release_answers().
  void hold_answers();
  // The webhook-ids of the requests held so far (since the last release_answers()).
  std::vector<std::string> held_webhook_ids() const;
  // Answers every held request at once (without its delay) and stops holding.
  void release_answers();

  // One line per request (method, target, status, webhook-id), for failure messages.
  std::string describe() const;

  // Used by the connection handlers. take_answer's delay includes the random one; record
  // returns whether the answer is held, and then keeps `release` to call at release_answers().
  ReceiverAnswer take_answer(const std::string& path);
  bool record(ReceivedRequest request, std::function<void()> release);
  void count_connection();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  unsigned short port_ = 0;

  mutable std::mutex mu_;
  mutable std::condition_variable cv_;
  std::vector<ReceivedRequest> received_;
  std::map<std::string, std::deque<ReceiverAnswer>> queued_;
  std::map<std::string, ReceiverAnswer> defaults_;  // "" = every path
  std::chrono::milliseconds random_delay_{0};
  std::mt19937_64 rng_{std::random_device{}()};
  int connections_ = 0;
  bool holding_ = false;
  struct Held {
    std::string webhook_id;
    std::function<void()> release;
  };
  std::vector<Held> held_;
};

}  // namespace leadline_test
