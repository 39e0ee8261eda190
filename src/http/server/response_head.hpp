// Serializes the status line and header fields of a Response into a buffer reused across the
// responses of one connection; the body is written after it without being copied.
#pragma once

#include <ctime>
#include <string>
#include <string_view>

#include "http/request.hpp"

namespace leadline::http {

struct ResponseFraming {
  bool keep_alive = true;
  bool announce_keep_alive = false;  // HTTP/1.0 clients only keep the connection when told
  bool head_request = false;         // HEAD: the head describes a body that is not sent
};

class ResponseHead {
 public:
  std::string_view serialize(const Response& response, const ResponseFraming& framing);

  // Whether body bytes follow the head on the wire (never for HEAD, 1xx, 204 and 304).
  static bool sends_body(unsigned status, bool head_request);

 private:
  void append_date();

  std::string text_;
  std::time_t date_second_ = -1;  // the Date value only changes once a second
  std::string date_;
};

}  // namespace leadline::http
