// Mapping of Beast parser errors to the refusals of the contract (docs/api.md: too large,
// malformed); transport errors and timeouts leave nobody to answer.
#include "http/read_failure.hpp"

#include <boost/beast/http/error.hpp>

namespace leadline::http {

namespace beast_http = boost::beast::http;

std::optional<RefusalKind> refusal_for(const boost::system::error_code& ec) {
  if (ec == beast_http::error::header_limit) return RefusalKind::kHeadersTooLarge;
  if (ec == beast_http::error::body_limit) return RefusalKind::kBodyTooLarge;
  // The peer went away before or during a request: there is no one left to tell.
  if (ec == beast_http::error::end_of_stream || ec == beast_http::error::partial_message) {
    return std::nullopt;
  }
  if (ec.category() == beast_http::make_error_code(beast_http::error::bad_method).category()) {
    return RefusalKind::kMalformedRequest;
  }
  return std::nullopt;
}

}  // namespace leadline::http
