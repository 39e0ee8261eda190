// One io_context run by a few threads; each connection's handlers run on a strand of their own,
// the record is shared under a mutex.

#include "support/recording_receiver.hpp"

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <cctype>
#include <mutex>
#include <random>
#include <thread>

namespace leadline_test {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;

std::string ReceivedRequest::webhook_id() const {
  auto it = headers.find("webhook-id");
  return it == headers.end() ? std::string() : it->second;
}

struct RecordingReceiver::Impl {
  explicit Impl(std::chrono::milliseconds delay)
      : max_delay(delay),
        acceptor(asio::make_strand(io), {asio::ip::make_address("127.0.0.1"), 0}) {}

  class Session : public std::enable_shared_from_this<Session> {
   public:
    Session(Impl& owner, tcp::socket socket)
        : owner_(owner), socket_(std::move(socket)), timer_(socket_.get_executor()) {
      boost::system::error_code ec;
      const auto peer = socket_.remote_endpoint(ec);
      if (!ec) peer_port_ = peer.port();
    }

    void read() {
      request_ = {};
      http::async_read(socket_, buffer_, request_,
                       [self = shared_from_this()](boost::system::error_code error, std::size_t) {
                         if (!error) self->answer();
                       });
    }

   private:
    void answer() {
      ReceivedRequest seen{std::string(request_.method_string()),
                           std::string(request_.target()),
                           {},
                           request_.body(),
                           peer_port_};
      for (const auto& field : request_) {
        std::string name(field.name_string());
        for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        seen.headers[name] = std::string(field.value());
      }
      std::chrono::milliseconds delay{0};
      bool held = false;
      {
        std::lock_guard lock(owner_.mu);
        if (owner_.holding) {
          held = true;
          owner_.held.push_back({weak_from_this(), seen.webhook_id()});
        }
        owner_.received.push_back(std::move(seen));
        if (owner_.max_delay.count() > 0) {
          delay = std::chrono::milliseconds(owner_.rng() % (owner_.max_delay.count() + 1));
        }
      }
      response_ = {};
      response_.version(11);
      response_.result(http::status::ok);
      response_.set(http::field::content_type, "text/plain");
      response_.body() = "ok";
      response_.keep_alive(request_.keep_alive());
      response_.prepare_payload();
      // A held answer waits until release() cancels the timer, on this connection's strand.
      if (held) {
        timer_.expires_at(asio::steady_timer::time_point::max());
      } else {
        timer_.expires_after(delay);
      }
      timer_.async_wait([self = shared_from_this()](boost::system::error_code) { self->write(); });
    }

   public:
    void release() {
      asio::post(socket_.get_executor(), [self = shared_from_this()] { self->timer_.cancel(); });
    }

   private:
    void write() {
      http::async_write(socket_, response_,
                        [self = shared_from_this()](boost::system::error_code error, std::size_t) {
                          if (!error && self->response_.keep_alive()) self->read();
                        });
    }

    Impl& owner_;
    tcp::socket socket_;
    asio::steady_timer timer_;
    unsigned short peer_port_ = 0;
    boost::beast::flat_buffer buffer_;
    http::request<http::string_body> request_;
    http::response<http::string_body> response_;
  };

  void accept() {
    acceptor.async_accept(asio::make_strand(io),
                          [this](boost::system::error_code error, tcp::socket socket) {
                            if (error) {
                              if (error == asio::error::operation_aborted) return;
                            } else {
                              ++connection_count;
                              std::make_shared<Session>(*this, std::move(socket))->read();
                            }
                            accept();
                          });
  }

  std::chrono::milliseconds max_delay;
  asio::io_context io;
  tcp::acceptor acceptor;
  std::vector<std::thread> threads;
  mutable std::mutex mu;
  std::vector<ReceivedRequest> received;
  std::mt19937_64 rng{std::random_device{}()};
  std::atomic<int> connection_count{0};
  bool holding = false;
  struct Held {
    std::weak_ptr<Session> session;
    std::string webhook_id;
  };
  std::vector<Held> held;
};

RecordingReceiver::RecordingReceiver(std::chrono::milliseconds max_delay, int threads)
    : impl_(std::make_unique<Impl>(max_delay)) {
  impl_->accept();
  for (int i = 0; i < (threads > 0 ? threads : 1); ++i) {
    impl_->threads.emplace_back([this] { impl_->io.run(); });
  }
}

RecordingReceiver::~RecordingReceiver() {
  impl_->io.stop();
  for (auto& t : impl_->threads) t.join();
}

unsigned short RecordingReceiver::port() const {
  return impl_->acceptor.local_endpoint().port();
}

std::string RecordingReceiver::url(std::string_view path) const {
  return "http://127.0.0.1:" + std::to_string(port()) + std::string(path);
}

std::vector<ReceivedRequest> RecordingReceiver::received() const {
  std::lock_guard lock(impl_->mu);
  return impl_->received;
}

std::size_t RecordingReceiver::count() const {
  std::lock_guard lock(impl_->mu);
  return impl_->received.size();
}

std::map<std::string, int> RecordingReceiver::counts_by_webhook_id() const {
  std::lock_guard lock(impl_->mu);
  std::map<std::string, int> out;
  for (const auto& r : impl_->received) ++out[r.webhook_id()];
  return out;
}

int RecordingReceiver::connections() const {
  return impl_->connection_count.load();
}

void RecordingReceiver::hold_answers() {
  std::lock_guard lock(impl_->mu);
  impl_->holding = true;
}

std::vector<std::string> RecordingReceiver::held_webhook_ids() const {
  std::lock_guard lock(impl_->mu);
  std::vector<std::string> out;
  for (const auto& h : impl_->held) out.push_back(h.webhook_id);
  return out;
}

void RecordingReceiver::release_answers() {
  std::vector<Impl::Held> held;
  {
    std::lock_guard lock(impl_->mu);
    impl_->holding = false;
    held.swap(impl_->held);
  }
  for (const auto& h : held) {
    if (auto session = h.session.lock()) session->release();
  }
}

}  // namespace leadline_test
