// Borrowing views only: the request stays valid while the connection's parser holds the message.
#include "http/request_adapter.hpp"

namespace leadline::http {

void adapt_request(const BeastRequest& message, std::string_view peer_ip, Request& request) {
  request.method = message.method_string();
  request.target = message.target();
  request.body = message.body();
  request.peer_ip = peer_ip;
  request.headers.clear();
  for (const auto& field : message) {
    request.headers.push_back(Header{field.name_string(), field.value()});
  }
}

}  // namespace leadline::http
