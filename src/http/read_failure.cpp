// Mapping of Beast parser errors to the refusals of the contract (decisions.md: 413, 431,
// malformed HTTP 400); transport errors and timeouts leave nobody to answer.
#include "http/read_failure.hpp"

#include <boost/beast/http/error.hpp>

namespace leadline::http {

namespace beast_http = boost::beast::http;

unsigned refusal_status_for(const boost::system::error_code& ec) {
  if (ec == beast_http::error::header_limit) return 431;
  if (ec == beast_http::error::body_limit) return 413;
  // The peer went away before or during a request: there is no one left to tell.
  if (ec == beast_http::error::end_of_stream || ec == beast_http::error::partial_message) return 0;
  if (ec.category() == beast_http::make_error_code(beast_http::error::bad_method).category()) {
    return 400;
  }
  return 0;
}

std::string refusal_reason(unsigned status, const ServerConfig& config) {
  switch (status) {
    case 413:
      return "request body is larger than the limit of " + std::to_string(config.body_limit) +
             " bytes";
    case 431:
      return "request header fields are larger than the limit of " +
             std::to_string(config.header_limit) + " bytes";
    case 503:
      return "server is at its connection limit";
    default:
      return "malformed HTTP request";
  }
}

}  // namespace leadline::http
