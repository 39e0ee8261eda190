// Turning the configured host and port into an endpoint to bind, and an endpoint back into the
// "HOST:PORT" text that listen() reports (IPv6 hosts in brackets).
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <string>
#include <string_view>

namespace leadline::http {

// "host:port" as the operator wrote it, for error messages.
std::string describe_address(std::string_view host, unsigned short port);

// A literal address is used as is; a name is resolved and its first address taken.
// Throws std::runtime_error naming the address when the host cannot be resolved.
boost::asio::ip::tcp::endpoint resolve_listen_endpoint(boost::asio::io_context& ioc,
                                                       std::string_view host, unsigned short port);

std::string endpoint_text(const boost::asio::ip::tcp::endpoint& endpoint);

}  // namespace leadline::http
