// Plain blocking-with-deadline TCP sockets for the hostile-client suites: byte-exact writes,
// clients that trickle, pipeline or never read, many idle connections, close detection, and the
// raw bytes of a response for header-injection checks.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "support/http_client.hpp"

namespace leadline_test {

class RawSocket {
 public:
  // Connects to host:port (IPv4 literal). `receive_buffer` > 0 sets SO_RCVBUF before connecting
  // (a small window makes a client that never reads stall the server's writes quickly).
  // Throws std::runtime_error when the connection cannot be made.
  RawSocket(const std::string& host, unsigned short port, int receive_buffer = 0,
            std::chrono::milliseconds timeout = std::chrono::milliseconds(5'000));
  ~RawSocket();
  RawSocket(RawSocket&& other) noexcept;
  RawSocket& operator=(RawSocket&& other) noexcept;
  RawSocket(const RawSocket&) = delete;
  RawSocket& operator=(const RawSocket&) = delete;

  int fd() const { return fd_; }

  // Writes all of `bytes`; false when the peer closed or reset, or the deadline passed first.
  bool send_all(std::string_view bytes,
                std::chrono::milliseconds timeout = std::chrono::milliseconds(5'000));
  // Writes as much of `bytes` as the socket takes without blocking; returns the count written
  // (0 when the buffers are full, the peer closed or an error occurred).
  std::size_t send_some(std::string_view bytes);
  // Half-closes the sending direction (the server sees end of stream).
  void shutdown_send();
  // Closes the socket now; with `reset` the kernel sends RST instead of FIN.
  void close(bool reset = false);

  enum class ReadStatus { data, closed, timeout };
  // Waits up to `timeout` for bytes; appends what arrives (at most `max` bytes) to `out`.
  // `closed` covers both an orderly close and a reset.
  ReadStatus read_some(std::string& out, std::chrono::milliseconds timeout,
                       std::size_t max = 64 * 1024);

  // Reads until the peer closes or `timeout` passes, keeping at most `keep` bytes in `out`
  // (the count of all bytes read goes to `total`). True when the peer closed.
  bool read_until_closed(std::chrono::milliseconds timeout, std::string* out = nullptr,
                         std::size_t* total = nullptr, std::size_t keep = 1024 * 1024);

  // Reads one complete HTTP/1.1 response (head and Content-Length body) from the stream, leaving
  // any following bytes buffered for the next call. nullopt when the peer closed or the timeout
  // passed first. The raw head (status line and fields, up to and including the empty line)
  // goes to `raw_head` when given.
  std::optional<HttpResponse> read_response(
      std::chrono::milliseconds timeout = std::chrono::milliseconds(10'000),
      std::string* raw_head = nullptr);

 private:
  int fd_ = -1;
  std::string pending_;  // bytes read past the last response
};

// Raises the soft RLIMIT_NOFILE of this process (inherited by servers it starts later) towards
// `wanted`, never above the hard limit; returns the soft limit now in force.
std::size_t raise_open_file_limit(std::size_t wanted);

// Parses a complete response head and body; nullopt when the bytes are not one.
std::optional<HttpResponse> parse_http_response(std::string_view head, std::string_view body);

}  // namespace leadline_test
