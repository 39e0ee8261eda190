// The HTTP layer's view of one request and its response, free of Beast types so that the API
// layer (and fuzzers) can be driven without sockets.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "http/refusal.hpp"

namespace leadline::http {

struct Header {
  std::string_view name;
  std::string_view value;
};

struct Request {
  std::string_view method;  // "GET", "POST", ...
  std::string_view target;  // origin-form: path and query as received
  std::string_view body;
  std::string_view peer_ip;  // textual address of the direct peer, e.g. "127.0.0.1", "::1"
  std::vector<Header> headers;

  // The target's path, and its query string after '?' (without it; empty when absent).
  std::string_view path() const { return target.substr(0, target.find('?')); }
  std::string_view query() const {
    const std::size_t question = target.find('?');
    return question == std::string_view::npos ? std::string_view{} : target.substr(question + 1);
  }

  // First header with this name (ASCII case-insensitive); empty when absent.
  std::string_view header(std::string_view name) const;
  bool has_header(std::string_view name) const;
};

struct Response {
  unsigned status = 200;
  std::string content_type = "application/json; charset=utf-8";
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  bool close = false;  // close the connection after writing

  void reset() {
    status = 200;
    content_type = "application/json; charset=utf-8";
    headers.clear();
    body.clear();
    close = false;
  }
};

// How handling a request may wait (Handler::waiting).
enum class Waiting {
  kNever,       // answered at once: run on the I/O thread
  kSuspending,  // waits only where a fiber suspends (the SQLite group commit)
  kBlocking,    // may block its thread (a database server's round trips, password hashing)
};

// What the server calls for each request. Implemented by the API layer.
class Handler {
 public:
  virtual ~Handler() = default;
  virtual void handle(const Request& request, Response& response) = 0;
  // Whether handling `request` may wait on others (a durable write waiting for its group
  // commit), and how. The server runs such requests off its I/O threads, so the waiting never
  // holds one and many requests can wait, and be committed, together: on its fiber thread when
  // the wait suspends a fiber (fibers/suspension.hpp), on its blocking pool otherwise.
  virtual Waiting waiting(const Request&) const { return Waiting::kNever; }
  // The HTTP layer's own refusals are rendered by the handler, so that every error shares one
  // envelope and one table of statuses. `head` is the request as far as it was read (possibly
  // part of its head only), or nullptr.
  virtual void render_refusal(const Refusal& refusal, const Request* head, Response& response) = 0;
};

}  // namespace leadline::http
