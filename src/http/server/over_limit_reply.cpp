// Self-owning one-shot writer of the 503 refusal.
#include "http/server/over_limit_reply.hpp"

#include <array>
#include <boost/asio/write.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <memory>

#include "http/server/guarded_handler.hpp"
#include "http/server/lingering_close.hpp"
#include "http/server/response_head.hpp"

namespace leadline::http {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;

class OverLimitReply : public std::enable_shared_from_this<OverLimitReply> {
 public:
  explicit OverLimitReply(asio::ip::tcp::socket socket) : stream_(std::move(socket)) {}

  void start(const ServerConfig& config, Handler& handler) {
    render_refusal_guarded(handler, {RefusalKind::kOverConnectionLimit}, nullptr, response_);
    const auto head = head_.serialize(response_, ResponseFraming{.keep_alive = false});
    const std::array<asio::const_buffer, 2> buffers{asio::buffer(head),
                                                    asio::buffer(response_.body)};
    stream_.expires_after(config.write_timeout);
    asio::async_write(stream_, buffers,
                      [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
                        if (ec) return;  // timed out or reset: the stream closes with us
                        close_lingering(self->stream_.release_socket());
                      });
  }

 private:
  beast::tcp_stream stream_;
  Response response_;
  ResponseHead head_;
};

}  // namespace

void reply_over_limit(asio::ip::tcp::socket socket, const ServerConfig& config, Handler& handler) {
  std::make_shared<OverLimitReply>(std::move(socket))->start(config, handler);
}

}  // namespace leadline::http
