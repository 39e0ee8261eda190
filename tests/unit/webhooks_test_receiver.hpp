// A webhook receiver for the sender's tests: a Boost.Beast HTTP/1.1 server on 127.0.0.1:0 in a
// thread of its own, answering each request as the test says and recording what arrived.
#pragma once

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <cctype>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace leadline::webhooks::testing {

namespace http = boost::beast::http;
using tcp = boost::asio::ip::tcp;

struct Received {
  std::string method;
  std::string target;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;
};

struct Answer {
  unsigned status = 200;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  std::chrono::milliseconds delay{0};  // before the answer is written
};

class TestReceiver {
 public:
  using Respond = std::function<Answer(const Received&)>;

  explicit TestReceiver(Respond respond = [](const Received&) { return Answer{}; })
      : respond_(std::move(respond)),
        acceptor_(io_, {boost::asio::ip::make_address("127.0.0.1"), 0}) {
    accept();
    thread_ = std::thread([this] { io_.run(); });
  }

  ~TestReceiver() {
    io_.stop();
    thread_.join();
  }

  TestReceiver(const TestReceiver&) = delete;
  TestReceiver& operator=(const TestReceiver&) = delete;

  unsigned short port() const { return acceptor_.local_endpoint().port(); }
  std::string url(std::string_view path = "/hook") const {
    return "http://127.0.0.1:" + std::to_string(port()) + std::string(path);
  }

  std::vector<Received> received() const {
    std::lock_guard lock(mutex_);
    return received_;
  }
  int connections() const { return connections_.load(); }

 private:
  // One connection: read a request, answer it (after the answer's delay), repeat while kept alive.
  class Session : public std::enable_shared_from_this<Session> {
   public:
    Session(TestReceiver& owner, tcp::socket socket)
        : owner_(owner), socket_(std::move(socket)), timer_(socket_.get_executor()) {}

    void read() {
      request_ = {};
      http::async_read(socket_, buffer_, request_,
                       [self = shared_from_this()](boost::system::error_code error, std::size_t) {
                         if (!error) self->answer();
                       });
    }

   private:
    void answer() {
      Received seen{std::string(request_.method_string()),
                    std::string(request_.target()),
                    {},
                    request_.body()};
      for (const auto& field : request_) {
        std::string name(field.name_string());
        for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        seen.headers[name] = std::string(field.value());
      }
      {
        std::lock_guard lock(owner_.mutex_);
        owner_.received_.push_back(seen);
      }
      const Answer answer = owner_.respond_(seen);
      response_ = {};
      response_.version(11);
      response_.result(answer.status);
      for (const auto& [name, value] : answer.headers) response_.set(name, value);
      response_.body() = answer.body;
      response_.keep_alive(request_.keep_alive());
      response_.prepare_payload();
      timer_.expires_after(answer.delay);
      timer_.async_wait([self = shared_from_this()](boost::system::error_code) { self->write(); });
    }

    void write() {
      http::async_write(socket_, response_,
                        [self = shared_from_this()](boost::system::error_code error, std::size_t) {
                          if (!error && self->response_.keep_alive()) self->read();
                        });
    }

    TestReceiver& owner_;
    tcp::socket socket_;
    boost::asio::steady_timer timer_;
    boost::beast::flat_buffer buffer_;
    http::request<http::string_body> request_;
    http::response<http::string_body> response_;
  };

  void accept() {
    acceptor_.async_accept([this](boost::system::error_code error, tcp::socket socket) {
      if (error) return;
      ++connections_;
      std::make_shared<Session>(*this, std::move(socket))->read();
      accept();
    });
  }

  Respond respond_;
  boost::asio::io_context io_;
  tcp::acceptor acceptor_;
  std::thread thread_;
  mutable std::mutex mutex_;
  std::vector<Received> received_;
  std::atomic<int> connections_{0};
};

}  // namespace leadline::webhooks::testing
