// The listening socket and its accept loop: admits connections up to max_connections and turns
// the rest away with a 503.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <memory>
#include <string>

#include "http/request.hpp"
#include "http/server/connection_registry.hpp"
#include "http/server/server.hpp"
#include "http/server/waiting_work.hpp"

namespace leadline::http {

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(boost::asio::io_context& ioc, const ServerConfig& config, Handler& handler,
           ConnectionRegistry& registry, WaitingWork waiting_work);

  // Binds (with SO_REUSEADDR) and listens; returns the bound "HOST:PORT".
  // Throws std::runtime_error naming the address when that fails.
  std::string open();
  void start();
  // Thread-safe: closes the listening socket; connections already accepted are unaffected.
  void stop();

 private:
  void accept();
  void on_accept(boost::system::error_code ec, boost::asio::ip::tcp::socket socket);
  void start_connection(boost::asio::ip::tcp::socket socket);
  void accept_later();

  boost::asio::io_context& ioc_;
  const ServerConfig& config_;
  Handler& handler_;
  ConnectionRegistry& registry_;
  WaitingWork waiting_work_;
  boost::asio::strand<boost::asio::io_context::executor_type> strand_;
  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::steady_timer retry_timer_;
};

}  // namespace leadline::http
