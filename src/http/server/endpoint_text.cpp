// Address parsing and printing for the listener.
#include "http/server/endpoint_text.hpp"

#include <boost/asio/ip/address.hpp>
#include <stdexcept>

namespace leadline::http {

namespace asio = boost::asio;
using asio::ip::tcp;

namespace {

// "[::1]" is accepted too, since that is how IPv6 hosts are usually written next to a port.
std::string_view strip_brackets(std::string_view host) {
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    return host.substr(1, host.size() - 2);
  }
  return host;
}

std::string host_text(const asio::ip::address& address) {
  return address.is_v6() ? "[" + address.to_string() + "]" : address.to_string();
}

}  // namespace

std::string describe_address(std::string_view host, unsigned short port) {
  const std::string_view bare = strip_brackets(host);
  const bool v6 = bare.find(':') != std::string_view::npos;
  return (v6 ? "[" + std::string(bare) + "]" : std::string(bare)) + ":" + std::to_string(port);
}

tcp::endpoint resolve_listen_endpoint(asio::io_context& ioc, std::string_view host,
                                      unsigned short port) {
  const std::string bare(strip_brackets(host));
  boost::system::error_code ec;
  const auto address = asio::ip::make_address(bare, ec);
  if (!ec) return {address, port};

  tcp::resolver resolver(ioc);
  const auto results = resolver.resolve(bare, std::to_string(port), tcp::resolver::passive, ec);
  if (ec || results.empty()) {
    throw std::runtime_error("cannot listen on " + describe_address(host, port) + ": " +
                             (ec ? ec.message() : std::string("host has no address")));
  }
  return results.begin()->endpoint();
}

std::string endpoint_text(const tcp::endpoint& endpoint) {
  return host_text(endpoint.address()) + ":" + std::to_string(endpoint.port());
}

}  // namespace leadline::http
