// A self-owning drain of a half-closed socket, bounded in time so that a client which keeps
// sending cannot hold it.
#include "http/server/lingering_close.hpp"

#include <array>
#include <boost/beast/core/tcp_stream.hpp>
#include <chrono>
#include <memory>

namespace leadline::http {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;

// Long enough for a client on a normal network to read the response and close its side.
constexpr std::chrono::seconds kLingerTime{1};

class LingeringClose : public std::enable_shared_from_this<LingeringClose> {
 public:
  explicit LingeringClose(asio::ip::tcp::socket socket) : stream_(std::move(socket)) {}

  void start() {
    boost::system::error_code ignored;
    stream_.socket().shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
    stream_.expires_after(kLingerTime);  // one deadline for the whole drain, not per read
    drain();
  }

 private:
  void drain() {
    stream_.async_read_some(asio::buffer(scratch_),
                            [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
                              if (ec) {
                                self->stream_.close();
                                return;
                              }
                              self->drain();
                            });
  }

  beast::tcp_stream stream_;
  std::array<char, 4096> scratch_{};
};

}  // namespace

void close_lingering(asio::ip::tcp::socket socket) {
  if (!socket.is_open()) return;
  std::make_shared<LingeringClose>(std::move(socket))->start();
}

}  // namespace leadline::http
