// A webhook endpoint for the black-box suites: an HTTP/1.1 server (Boost.Beast) on 127.0.0.1:0
// with threads of its own, that records every request (headers and body) and answers 200. It
// serves any number of concurrent keep-alive connections, as leadline's delivery workers open.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace leadline_test {

struct ReceivedRequest {
  std::string method;
  std::string target;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;
  unsigned short peer_port = 0;  // the sender's port of the connection it came on

  // headers["webhook-id"], "" when absent.
  std::string webhook_id() const;
};

class RecordingReceiver {
 public:
  // Each answer waits a random time up to `max_delay` (0: none) before it is written, so that
  // a test can widen the window in which deliveries are in flight.
  explicit RecordingReceiver(std::chrono::milliseconds max_delay = std::chrono::milliseconds(0),
                             int threads = 2);
  ~RecordingReceiver();
  RecordingReceiver(const RecordingReceiver&) = delete;
  RecordingReceiver& operator=(const RecordingReceiver&) = delete;

  unsigned short port() const;
  // http://127.0.0.1:PORT<path>
  std::string url(std::string_view path = "/hook") const;

  // Every request recorded so far, in arrival order.
  std::vector<ReceivedRequest> received() const;
  std::size_t count() const;
  // How many requests arrived with each webhook-id.
  std::map<std::string, int> counts_by_webhook_id() const;
  // Connections accepted so far.
  int connections() const;

  // From now on, requests are recorded but not answered until release_answers(): a test can
  // know that the deliveries held were in flight (unanswered) when it killed the sender.
  void hold_answers();
  // The webhook-ids of the requests held so far (since hold_answers()).
  std::vector<std::string> held_webhook_ids() const;
  // Answers every held request (each after its delay) and stops holding.
  void release_answers();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace leadline_test
