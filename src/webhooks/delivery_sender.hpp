// One webhook attempt over HTTP(S) with libcurl: signed headers, the SSRF checks on every address
// the host resolves to, no redirects, a time limit, and what the delivery log keeps of the answer.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "webhooks/blocked_ranges.hpp"

namespace leadline::webhooks {

struct SenderConfig {
  AddressPolicy policy;
  bool allow_http = false;
  std::chrono::milliseconds timeout{15000};
  std::string user_agent;  // "leadline-webhooks/<version>"
};

struct Attempt {
  std::string url;
  std::string body;    // the event JSON, byte-identical on every attempt
  std::string msg_id;  // webhook-id header (the event id)
  std::vector<std::string> secret_bytes_newest_first;
};

struct AttemptResult {
  std::optional<int> status_code;  // nullopt when no HTTP answer
  std::int64_t duration_ms = 0;
  // nullopt on success; else one short sentence: "HTTP 500", "timed out after 15 s",
  // "connection refused", "redirect (HTTP 301) not followed",
  // "address 127.0.0.1 is in the blocked range 127.0.0.0/8",
  // "could not resolve host example.invalid", "TLS error: ..."
  std::optional<std::string> error;
  // First 1,024 bytes of the body, invalid UTF-8 replaced by U+FFFD. The rest is read and
  // discarded up to 64 KiB of body in all (so the connection can be reused); past that the sender
  // hangs up, and the status still counts.
  std::string response_excerpt;
  std::optional<std::chrono::seconds> retry_after;  // only from a 429 or 503 answer

  bool succeeded() const {
    return status_code && *status_code >= 200 && *status_code < 300 && !error;
  }
};

class DeliverySender {
 public:
  // One per worker thread; keeps a CURL easy handle (connection reuse).
  explicit DeliverySender(SenderConfig config);
  ~DeliverySender();
  DeliverySender(const DeliverySender&) = delete;
  DeliverySender& operator=(const DeliverySender&) = delete;

  // Never throws for anything the receiver or the network does; those are the result's error.
  AttemptResult send(const Attempt& attempt, std::int64_t unix_seconds_now);

 private:
  SenderConfig config_;
  void* curl_;            // CURL*, kept out of this header so its users need no curl headers
  std::string last_pin_;  // "host:port" pinned by CURLOPT_RESOLVE in the previous attempt
};

// curl_global_init once per process (call from main wiring before threads start).
void init_http_client_library();

}  // namespace leadline::webhooks
