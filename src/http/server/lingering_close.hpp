// Ends a connection after its last response without destroying that response: half-close,
// discard what the client still sends for a moment, then close.
#pragma once

#include <boost/asio/ip/tcp.hpp>

namespace leadline::http {

// Closing at once with unread request bytes (say, a refused 2 MiB body) makes the kernel send a
// reset that can wipe the response from the client's receive buffer before it reads it.
// Takes over the socket; everything after this runs on the socket's executor.
void close_lingering(boost::asio::ip::tcp::socket socket);

}  // namespace leadline::http
