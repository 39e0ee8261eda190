// A small synchronous HTTP/1.1 client for the black-box suites: one keep-alive connection,
// reconnected when the server closed it, plus raw-bytes helpers for malformed-input tests.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/json.hpp>

namespace leadline_test {

using Headers = std::vector<std::pair<std::string, std::string>>;

// Lookups in a header list, names compared ASCII case-insensitively (as HTTP compares them).
bool has_header(const Headers& headers, std::string_view name);
std::string header_value(const Headers& headers, std::string_view name);  // first; "" if absent
std::vector<std::string> header_values(const Headers& headers, std::string_view name);

struct HttpResponse {
  unsigned status = 0;
  Headers headers;
  std::string body;
  std::optional<boost::json::value> json;  // set when the body parses as JSON

  // Header lookup, ASCII case-insensitive.
  bool has_header(std::string_view name) const;
  std::string header(std::string_view name) const;  // first value, "" when absent
  std::vector<std::string> header_values(std::string_view name) const;

  // The JSON body as an object; throws std::runtime_error when it is not one.
  const boost::json::object& object() const;
  // object()["data"]; throws when absent.
  const boost::json::value& data() const;

  // Status, headers and body, for failure messages.
  std::string describe() const;
};

class HttpClient {
 public:
  HttpClient(std::string host, unsigned short port);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // Sends one request on the kept-alive connection (connecting or reconnecting as needed).
  // A Content-Type of application/json is added when a body is given and `headers` has no
  // Content-Type; a Content-Type header with an empty value suppresses the header entirely.
  // Throws std::runtime_error on transport failure.
  HttpResponse request(std::string_view method, std::string_view target,
                       std::optional<std::string> body = std::nullopt, const Headers& headers = {});

  // Opens the connection now (for tests that want connections established before a burst).
  void connect();
  void close();

  std::chrono::milliseconds timeout{20'000};
  // Responses are recorded for the OpenAPI contract check (support/contract_log.hpp); a client
  // of another server (the admin listener) turns this off.
  bool contract_checked = true;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Opens a fresh connection, writes `bytes` and reads one HTTP response. nullopt when the server
// closed the connection (or the timeout passed) without sending a complete response.
std::optional<HttpResponse> raw_exchange(
    const std::string& host, unsigned short port, std::string_view bytes,
    std::chrono::milliseconds timeout = std::chrono::milliseconds(10'000));

// Percent-encodes a query-string value (RFC 3986 unreserved characters are kept).
std::string url_encode(std::string_view value);

}  // namespace leadline_test
