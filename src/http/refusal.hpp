// The HTTP layer's own refusals, as values: what went wrong with a request before (or instead
// of) the handler answering it. The handler words and renders them (Handler::render_refusal).
#pragma once

#include <cstddef>

namespace leadline::http {

enum class RefusalKind {
  kMalformedRequest,     // the request is not valid HTTP/1.1
  kHeadersTooLarge,      // the head exceeds ServerConfig::header_limit
  kBodyTooLarge,         // the body (or its declared length) exceeds ServerConfig::body_limit
  kOverConnectionLimit,  // accepted beyond ServerConfig::max_connections
  kHandlerFailed,        // Handler::handle threw
};

struct Refusal {
  RefusalKind kind;
  std::size_t limit = 0;  // the limit exceeded, in bytes, for the two size refusals
};

}  // namespace leadline::http
