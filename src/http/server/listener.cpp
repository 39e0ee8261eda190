// Binding and the accept loop. Accepts are serialised on the listener's strand, and each takes
// its slot synchronously, so max_connections is exact.
#include "http/server/listener.hpp"

#include <boost/asio/ip/v6_only.hpp>
#include <boost/asio/post.hpp>
#include <chrono>
#include <new>
#include <stdexcept>

#include "http/server/connection.hpp"
#include "http/server/endpoint_text.hpp"
#include "http/server/over_limit_reply.hpp"

namespace leadline::http {

namespace asio = boost::asio;
using asio::ip::tcp;
using boost::system::error_code;

namespace {

// Out of descriptors or buffers: retrying at once would spin; a short pause lets
// connections close.
constexpr std::chrono::milliseconds kAcceptRetryDelay{50};

bool is_resource_exhaustion(const error_code& ec) {
  return ec == asio::error::no_descriptors || ec == asio::error::no_buffer_space ||
         ec == asio::error::no_memory || ec == asio::error::no_such_device || ec.value() == ENFILE;
}

}  // namespace

Listener::Listener(asio::io_context& ioc, const ServerConfig& config, Handler& handler,
                   ConnectionRegistry& registry, WaitingWork waiting_work)
    : ioc_(ioc),
      config_(config),
      handler_(handler),
      registry_(registry),
      waiting_work_(waiting_work),
      strand_(asio::make_strand(ioc)),
      acceptor_(strand_),
      retry_timer_(strand_) {}

std::string Listener::open() {
  const tcp::endpoint endpoint = resolve_listen_endpoint(ioc_, config_.host, config_.port);
  const auto fail = [&](const error_code& ec) {
    error_code ignored;
    acceptor_.close(ignored);
    throw std::runtime_error("cannot listen on " + describe_address(config_.host, config_.port) +
                             ": " + ec.message());
  };
  error_code ec;
  acceptor_.open(endpoint.protocol(), ec);
  if (ec) fail(ec);
  acceptor_.set_option(tcp::acceptor::reuse_address(true), ec);
  if (ec) fail(ec);
  if (endpoint.address().is_v6() && endpoint.address().is_unspecified()) {
    // "::" means every address, IPv4 included, whatever the system's bindv6only default.
    acceptor_.set_option(asio::ip::v6_only(false), ec);
    if (ec) fail(ec);
  }
  acceptor_.bind(endpoint, ec);
  if (ec) fail(ec);
  acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) fail(ec);
  const auto bound = acceptor_.local_endpoint(ec);
  if (ec) fail(ec);
  return endpoint_text(bound);
}

void Listener::start() {
  asio::post(strand_, [self = shared_from_this()] { self->accept(); });
}

void Listener::stop() {
  asio::post(strand_, [self = shared_from_this()] {
    error_code ignored;
    self->acceptor_.close(ignored);
    self->retry_timer_.cancel();
  });
}

void Listener::accept() {
  if (!acceptor_.is_open()) return;
  // Each connection gets its own strand: its handlers never run concurrently.
  acceptor_.async_accept(asio::make_strand(ioc_),
                         [self = shared_from_this()](error_code ec, tcp::socket socket) {
                           self->on_accept(ec, std::move(socket));
                         });
}

void Listener::on_accept(error_code ec, tcp::socket socket) {
  if (ec) {
    if (ec == asio::error::operation_aborted || !acceptor_.is_open()) return;
    if (is_resource_exhaustion(ec)) {
      accept_later();
    } else {
      accept();  // e.g. the client reset before we got to it
    }
    return;
  }
  if (registry_.stopping()) return;  // the socket closes as it goes out of scope
  if (registry_.try_admit(config_.max_connections)) {
    start_connection(std::move(socket));
  } else {
    reply_over_limit(std::move(socket), config_, handler_);
  }
  accept();
}

void Listener::start_connection(tcp::socket socket) {
  std::shared_ptr<Connection> connection;
  try {
    connection = std::make_shared<Connection>(std::move(socket), config_, handler_, registry_,
                                              waiting_work_);
  } catch (const std::bad_alloc&) {
    registry_.leave(nullptr);  // the slot was taken for a connection that never existed
    return;
  }
  connection->start();
}

void Listener::accept_later() {
  retry_timer_.expires_after(kAcceptRetryDelay);
  retry_timer_.async_wait([self = shared_from_this()](error_code ec) {
    if (!ec) self->accept();
  });
}

}  // namespace leadline::http
