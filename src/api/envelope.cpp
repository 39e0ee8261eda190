// Error envelope; data and list envelopes are templates in the header.
#include "api/envelope.hpp"

namespace leadline::api {

void respond_error(http::Response& response, unsigned status, std::string_view message) {
  response.status = status;
  response.body.clear();
  JsonWriter w(response.body);
  w.begin_object().field("success", false).field("error", message).end_object();
}

void respond_method_not_allowed(http::Response& response, std::string_view method,
                                std::string_view allow) {
  response.headers.emplace_back("Allow", std::string(allow));
  respond_error(
      response, 405,
      "method " + std::string(method) + " is not allowed here; allowed: " + std::string(allow));
}

}  // namespace leadline::api
