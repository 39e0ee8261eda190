// One accepted HTTP/1.1 connection: requests read one after another (so pipelined ones are
// answered in order) and handed to the Handler, under the size limits and timeouts of ServerConfig.
#pragma once

#include <array>
#include <boost/asio/buffer.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/buffers_suffix.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>
#include <memory>
#include <optional>
#include <string>

#include "http/request.hpp"
#include "http/server/connection_registry.hpp"
#include "http/server/response_head.hpp"
#include "http/server/server.hpp"
#include "http/server/waiting_work.hpp"

namespace leadline::http {

// All of a connection's work runs on its own strand; pending operations hold it alive.
class Connection : public std::enable_shared_from_this<Connection> {
 public:
  // Takes over a slot the accept loop obtained with ConnectionRegistry::try_admit.
  Connection(boost::asio::ip::tcp::socket socket, const ServerConfig& config, Handler& handler,
             ConnectionRegistry& registry, WaitingWork waiting_work);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  void start();
  // Thread-safe: lets an in-flight request finish, closes the connection if it is between
  // requests.
  void stop();

 private:
  enum class Phase { awaiting_request, reading_head, reading_body, responding, closed };

  void await_request();
  void release_excess_capacity();
  void on_request_start(boost::system::error_code ec, std::size_t bytes);
  void read_head();
  void on_head(boost::system::error_code ec);
  void send_continue();
  void read_body();
  void on_body(boost::system::error_code ec);
  void respond();
  void send_handled_response();
  // A read that failed: answered with a refusal the client can read, else just closed.
  void end_failed_read(boost::system::error_code ec);
  void refuse(RefusalKind kind);
  void write_response(const ResponseFraming& framing);
  void on_written(boost::system::error_code ec);
  void on_stop();
  void close_gracefully();
  void close_now();

  boost::beast::tcp_stream stream_;
  const ServerConfig& config_;
  Handler& handler_;
  ConnectionRegistry& registry_;
  WaitingWork waiting_work_;
  ConnectionRegistry::Entry entry_{};
  bool enlisted_ = false;
  Phase phase_ = Phase::reading_head;
  std::string peer_ip_;

  // Reused across the requests of this connection.
  boost::beast::flat_buffer buffer_;
  std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
  Request request_;
  Response response_;
  ResponseHead head_;
  std::array<boost::asio::const_buffer, 2> out_;
  // What a non-blocking write left of out_ for the asynchronous one.
  boost::beast::buffers_suffix<std::array<boost::asio::const_buffer, 2>> unsent_;
  bool keep_alive_ = false;
  bool try_write_first_ = false;  // the socket is non-blocking
};

}  // namespace leadline::http
