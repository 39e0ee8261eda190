// The per-connection request loop: idle wait, head, size checks, body, handler, response, then
// the next request or a clean close.
#include "http/server/connection.hpp"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/buffers_suffix.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/http/read.hpp>
#include <cstdint>
#include <limits>
#include <string_view>

#include "http/read_failure.hpp"
#include "http/request_adapter.hpp"
#include "http/server/guarded_handler.hpp"
#include "http/server/lingering_close.hpp"

namespace leadline::http {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace beast_http = boost::beast::http;
using boost::system::error_code;

namespace {

// Enough for a typical request head in one read once a keep-alive request begins.
constexpr std::size_t kRequestStartReadSize = 4096;

// Buffers are reused across requests, but an idle keep-alive connection should not keep the
// memory of one exceptionally large request or response.
constexpr std::size_t kRetainedCapacity = 64 * 1024;

constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";

bool expects_continue(const BeastRequest& message) {
  return message.version() >= 11 &&
         beast::iequals(message[beast_http::field::expect], "100-continue");
}

std::uint32_t header_limit_of(const ServerConfig& config) {
  return static_cast<std::uint32_t>(
      std::min<std::size_t>(config.header_limit, std::numeric_limits<std::uint32_t>::max()));
}

}  // namespace

Connection::Connection(asio::ip::tcp::socket socket, const ServerConfig& config, Handler& handler,
                       ConnectionRegistry& registry, WaitingWork waiting_work)
    : stream_(std::move(socket)),
      config_(config),
      handler_(handler),
      registry_(registry),
      waiting_work_(waiting_work) {
  error_code ec;
  const auto remote = stream_.socket().remote_endpoint(ec);
  if (!ec) peer_ip_ = remote.address().to_string();
  // Responses go out in one write each; Nagle would hold back the next pipelined one.
  stream_.socket().set_option(asio::ip::tcp::no_delay(true), ec);
  // write_response tries a write that must not block before it falls back to an async one.
  stream_.socket().non_blocking(true, ec);
  try_write_first_ = !ec;
}

Connection::~Connection() {
  registry_.leave(enlisted_ ? &entry_ : nullptr);
}

void Connection::start() {
  // Enlisting happens on the strand so that a concurrent stop() cannot reach this
  // connection before its first read is under way.
  asio::post(stream_.get_executor(), [self = shared_from_this()] {
    if (self->peer_ip_.empty() || !self->registry_.enlist(self->weak_from_this(), self->entry_)) {
      self->close_now();
      return;
    }
    self->enlisted_ = true;
    // The first head must be complete within header_timeout of the connection opening.
    self->read_head();
  });
}

void Connection::stop() {
  asio::post(stream_.get_executor(), [self = shared_from_this()] { self->on_stop(); });
}

void Connection::on_stop() {
  // Between requests (or with only part of a head received) nothing has been promised yet.
  if (phase_ == Phase::awaiting_request || phase_ == Phase::reading_head) stream_.cancel();
}

// Each step below re-arms the stream's deadline once; a deadline covers the whole step, so a head
// trickling in byte by byte still ends at header_timeout.

void Connection::await_request() {
  if (registry_.stopping()) {
    close_gracefully();
    return;
  }
  phase_ = Phase::awaiting_request;
  release_excess_capacity();
  stream_.expires_after(config_.idle_timeout);
  stream_.async_read_some(buffer_.prepare(kRequestStartReadSize),
                          [self = shared_from_this()](error_code ec, std::size_t bytes) {
                            self->on_request_start(ec, bytes);
                          });
}

void Connection::release_excess_capacity() {
  if (buffer_.capacity() > kRetainedCapacity) buffer_.shrink_to_fit();
  if (response_.body.capacity() > kRetainedCapacity) std::string().swap(response_.body);
}

void Connection::on_request_start(error_code ec, std::size_t bytes) {
  if (ec) {
    close_now();  // idle timeout, peer closed, or stop()
    return;
  }
  buffer_.commit(bytes);
  read_head();
}

void Connection::read_head() {
  if (registry_.stopping()) {
    close_gracefully();
    return;
  }
  phase_ = Phase::reading_head;
  parser_.emplace();
  parser_->header_limit(header_limit_of(config_));
  parser_->body_limit(config_.body_limit);
  // A head already received in full (a keep-alive request arrives in one segment) is parsed
  // here: async_read_header would parse the same bytes, after arming the header timer and
  // posting its completion.
  if (buffer_.size() > 0) {
    error_code ec;
    buffer_.consume(parser_->put(buffer_.data(), ec));
    if (ec != beast_http::error::need_more) {
      on_head(ec);
      return;
    }
  }
  stream_.expires_after(config_.header_timeout);
  beast_http::async_read_header(
      stream_, buffer_, *parser_,
      [self = shared_from_this()](error_code ec, std::size_t) { self->on_head(ec); });
}

void Connection::on_head(error_code ec) {
  if (ec) return end_failed_read(ec);
  if (parser_->is_done()) {
    respond();
    return;
  }
  // Beast already rejects a declared length over body_limit while parsing the head; checked
  // again here so the rule does not hinge on that detail.
  if (const auto length = parser_->content_length(); length && *length > config_.body_limit) {
    refuse(RefusalKind::kBodyTooLarge);
    return;
  }
  if (expects_continue(parser_->get())) {
    send_continue();
  } else {
    read_body();
  }
}

void Connection::send_continue() {
  phase_ = Phase::reading_body;
  stream_.expires_after(config_.write_timeout);
  asio::async_write(stream_, asio::buffer(kContinue),
                    [self = shared_from_this()](error_code ec, std::size_t) {
                      if (ec) {
                        self->close_now();
                        return;
                      }
                      self->read_body();
                    });
}

void Connection::read_body() {
  phase_ = Phase::reading_body;
  stream_.expires_after(config_.body_timeout);
  beast_http::async_read(
      stream_, buffer_, *parser_,
      [self = shared_from_this()](error_code ec, std::size_t) { self->on_body(ec); });
}

void Connection::on_body(error_code ec) {
  if (ec) return end_failed_read(ec);
  respond();
}

void Connection::respond() {
  phase_ = Phase::responding;
  const auto& message = parser_->get();
  adapt_request(message, peer_ip_, request_);
  response_.reset();
  const Waiting waiting = handler_.waiting(request_);
  if (waiting != Waiting::kNever) {
    // Nothing else touches this connection until the response is written, so the fiber or pool
    // thread may use request_ and response_; the result comes back to the connection's strand.
    auto handle = [self = shared_from_this()] {
      handle_guarded(self->handler_, self->request_, self->response_);
      asio::post(self->stream_.get_executor(), [self] { self->send_handled_response(); });
    };
    if (waiting == Waiting::kSuspending) {
      waiting_work_.fibers.spawn(std::move(handle));
    } else {
      asio::post(waiting_work_.blocking_pool, std::move(handle));
    }
    return;
  }
  // Quick requests run on this I/O thread: a hop to another thread would cost more than them.
  handle_guarded(handler_, request_, response_);
  send_handled_response();
}

void Connection::send_handled_response() {
  const auto& message = parser_->get();
  write_response(ResponseFraming{
      .keep_alive = message.keep_alive() && !response_.close && !registry_.stopping(),
      .announce_keep_alive = message.version() < 11,
      .head_request = message.method() == beast_http::verb::head,
  });
}

void Connection::end_failed_read(error_code ec) {
  if (const auto kind = refusal_for(ec)) {
    refuse(*kind);
  } else {
    close_now();
  }
}

void Connection::refuse(RefusalKind kind) {
  phase_ = Phase::responding;
  // What the parser has kept of the head (whole header lines only) still lets the refusal echo
  // what the client sent, its request id above all.
  const Request* head = nullptr;
  if (parser_) {
    adapt_request(parser_->get(), peer_ip_, request_);
    head = &request_;
  }
  const Refusal refusal{kind, kind == RefusalKind::kHeadersTooLarge ? config_.header_limit
                              : kind == RefusalKind::kBodyTooLarge  ? config_.body_limit
                                                                    : 0};
  render_refusal_guarded(handler_, refusal, head, response_);
  write_response(ResponseFraming{.keep_alive = false});
}

void Connection::write_response(const ResponseFraming& framing) {
  keep_alive_ = framing.keep_alive;
  const std::string_view head = head_.serialize(response_, framing);
  out_[0] = asio::buffer(head);
  out_[1] = ResponseHead::sends_body(response_.status, framing.head_request)
                ? asio::buffer(response_.body)
                : asio::const_buffer();
  // Most responses fit in the socket's send buffer: one non-blocking write sends them without
  // the write timer and the completion a composed write costs. The rest, if any, goes out
  // asynchronously under write_timeout. Bytes of a next pipelined request already buffered are
  // answered through a post, so a long pipeline does not answer request after request on one
  // ever deeper stack.
  error_code ec;
  const std::size_t sent = try_write_first_ ? stream_.socket().write_some(out_, ec) : 0;
  if (ec == asio::error::would_block || ec == asio::error::try_again) ec = {};
  if (!ec && sent == asio::buffer_size(out_)) {
    if (buffer_.size() == 0) {
      on_written(ec);
    } else {
      asio::post(stream_.get_executor(), [self = shared_from_this()] { self->on_written({}); });
    }
    return;
  }
  if (ec) {
    close_now();
    return;
  }
  unsent_ = beast::buffers_suffix<std::array<asio::const_buffer, 2>>(out_);
  unsent_.consume(sent);
  stream_.expires_after(config_.write_timeout);
  asio::async_write(stream_, unsent_, [self = shared_from_this()](error_code ec, std::size_t) {
    self->on_written(ec);
  });
}

void Connection::on_written(error_code ec) {
  if (ec) {
    close_now();
    return;
  }
  if (!keep_alive_ || registry_.stopping()) {
    close_gracefully();
    return;
  }
  // The request's views point into the parser's message, which goes away here.
  request_.headers.clear();
  parser_.reset();
  // Bytes already buffered are the next pipelined request: its head clock starts now.
  if (buffer_.size() > 0) {
    read_head();
  } else {
    await_request();
  }
}

void Connection::close_gracefully() {
  phase_ = Phase::closed;
  close_lingering(stream_.release_socket());
}

void Connection::close_now() {
  phase_ = Phase::closed;
  error_code ignored;
  stream_.socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  stream_.close();
}

}  // namespace leadline::http
