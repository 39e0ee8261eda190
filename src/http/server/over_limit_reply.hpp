// The answer to a connection accepted beyond max_connections: a 503 written without reading
// the request, then a close. It holds no slot, so it cannot itself push the server further over.
#pragma once

#include <boost/asio/ip/tcp.hpp>

#include "http/request.hpp"
#include "http/server/server.hpp"

namespace leadline::http {

void reply_over_limit(boost::asio::ip::tcp::socket socket, const ServerConfig& config,
                      Handler& handler);

}  // namespace leadline::http
