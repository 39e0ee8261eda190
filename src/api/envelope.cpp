// Error envelope; data and list envelopes are templates in the header.
#include "api/envelope.hpp"

namespace leadline::api {

void respond_error(http::Response& response, unsigned status, std::string_view message) {
  response.status = status;
  response.body.clear();
  JsonWriter w(response.body);
  w.begin_object().field("success", false).field("error", message).end_object();
}

}  // namespace leadline::api
