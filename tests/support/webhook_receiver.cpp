// Boost.Beast implementation of the webhook receiver: an acceptor and one asynchronous session
// per connection, each on its own strand of an io_context run by a few threads, so that a
// delayed (or held) answer on one connection never holds up another.

#include "support/webhook_receiver.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace leadline_test {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

class ReceiverSession : public std::enable_shared_from_this<ReceiverSession> {
 public:
  ReceiverSession(tcp::socket socket, WebhookReceiver& owner)
      : stream_(std::move(socket)), timer_(stream_.get_executor()), owner_(owner) {
    beast::error_code ec;
    const auto peer = stream_.socket().remote_endpoint(ec);
    if (!ec) peer_port_ = peer.port();
  }

  void start() { read(); }

 private:
  void read() {
    request_ = {};
    parser_.emplace();
    parser_->body_limit(16 * 1024 * 1024);
    stream_.expires_after(std::chrono::seconds(60));
    http::async_read(
        stream_, buffer_, *parser_,
        [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_read(ec); });
  }

  void on_read(beast::error_code ec) {
    if (ec) return close();
    request_ = parser_->release();
    ReceivedRequest r;
    r.method = std::string(request_.method_string());
    r.target = std::string(request_.target());
    r.path = r.target.substr(0, r.target.find('?'));
    for (const auto& field : request_) {
      r.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
    }
    r.body = request_.body();
    r.arrived = std::chrono::steady_clock::now();
    r.arrived_wall = std::chrono::system_clock::now();
    r.peer_port = peer_port_;
    answer_ = owner_.take_answer(r.path);
    r.answered_status = answer_.status;
    // A held answer waits until release_answers() cancels the timer, on this connection's strand.
    auto release = [weak = weak_from_this()] {
      if (auto self = weak.lock()) {
        asio::post(self->stream_.get_executor(), [self] { self->timer_.cancel(); });
      }
    };
    if (owner_.record(std::move(r), std::move(release))) {
      timer_.expires_at(asio::steady_timer::time_point::max());
      timer_.async_wait([self = shared_from_this()](beast::error_code) { self->write(); });
    } else if (answer_.delay.count() > 0) {
      timer_.expires_after(answer_.delay);
      timer_.async_wait([self = shared_from_this()](beast::error_code) { self->write(); });
    } else {
      write();
    }
  }

  void write() {
    auto res = std::make_shared<http::response<http::string_body>>();
    res->version(request_.version());
    res->result(answer_.status);
    res->set(http::field::server, "leadline-test-receiver");
    res->set(http::field::content_type, "text/plain");
    for (const auto& [name, value] : answer_.headers) res->insert(name, value);
    // 1xx, 204 and 304 answers carry no body (Beast refuses to frame one).
    bool bodiless = answer_.status < 200 || answer_.status == 204 || answer_.status == 304;
    if (!bodiless) res->body() = answer_.body;
    res->keep_alive(request_.keep_alive());
    res->prepare_payload();
    stream_.expires_after(std::chrono::seconds(10));
    http::async_write(stream_, *res,
                      [self = shared_from_this(), res](beast::error_code ec, std::size_t) {
                        if (ec || !res->keep_alive()) return self->close();
                        self->read();
                      });
  }

  void close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.socket().close(ignored);
  }

  beast::tcp_stream stream_;
  asio::steady_timer timer_;
  WebhookReceiver& owner_;
  unsigned short peer_port_ = 0;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  http::request<http::string_body> request_;
  ReceiverAnswer answer_;
};

}  // namespace

bool ReceivedRequest::has_header(std::string_view name) const {
  return leadline_test::has_header(headers, name);
}

std::string ReceivedRequest::header(std::string_view name) const {
  return header_value(headers, name);
}

std::vector<std::string> ReceivedRequest::header_values(std::string_view name) const {
  return leadline_test::header_values(headers, name);
}

std::string ReceivedRequest::webhook_id() const {
  return header("webhook-id");
}

struct WebhookReceiver::Impl {
  asio::io_context ioc;
  tcp::acceptor acceptor{ioc};
  std::vector<std::thread> threads;
  WebhookReceiver* owner = nullptr;

  void accept() {
    acceptor.async_accept(asio::make_strand(ioc), [this](beast::error_code ec, tcp::socket s) {
      if (ec) {
        if (ec == asio::error::operation_aborted || !acceptor.is_open()) return;
      } else {
        owner->count_connection();
        std::make_shared<ReceiverSession>(std::move(s), *owner)->start();
      }
      accept();
    });
  }
};

WebhookReceiver::WebhookReceiver(unsigned threads) : impl_(std::make_unique<Impl>()) {
  impl_->owner = this;
  tcp::endpoint ep(asio::ip::make_address("127.0.0.1"), 0);
  impl_->acceptor.open(ep.protocol());
  impl_->acceptor.set_option(asio::socket_base::reuse_address(true));
  impl_->acceptor.bind(ep);
  impl_->acceptor.listen(asio::socket_base::max_listen_connections);
  port_ = impl_->acceptor.local_endpoint().port();
  impl_->accept();
  if (threads == 0) threads = 1;
  for (unsigned i = 0; i < threads; ++i) {
    impl_->threads.emplace_back([this] { impl_->ioc.run(); });
  }
}

WebhookReceiver::~WebhookReceiver() {
  impl_->ioc.stop();
  for (auto& t : impl_->threads) t.join();
  impl_.reset();  // sessions and the acceptor go with the io_context, before the recordings
}

std::string WebhookReceiver::url(std::string_view path) const {
  std::string p(path);
  if (p.empty() || p[0] != '/') p = "/" + p;
  return "http://127.0.0.1:" + std::to_string(port_) + p;
}

void WebhookReceiver::set_default(ReceiverAnswer answer, const std::string& path) {
  std::lock_guard lock(mu_);
  defaults_[path] = std::move(answer);
}

void WebhookReceiver::set_default_status(unsigned status, const std::string& path) {
  ReceiverAnswer a;
  a.status = status;
  set_default(std::move(a), path);
}

void WebhookReceiver::enqueue(const std::string& path, ReceiverAnswer answer) {
  std::lock_guard lock(mu_);
  queued_[path].push_back(std::move(answer));
}

void WebhookReceiver::enqueue_statuses(const std::string& path,
                                       const std::vector<unsigned>& statuses) {
  for (unsigned s : statuses) {
    ReceiverAnswer a;
    a.status = s;
    enqueue(path, std::move(a));
  }
}

void WebhookReceiver::set_random_delay(std::chrono::milliseconds max) {
  std::lock_guard lock(mu_);
  random_delay_ = max;
}

ReceiverAnswer WebhookReceiver::take_answer(const std::string& path) {
  std::lock_guard lock(mu_);
  ReceiverAnswer a;
  if (auto q = queued_.find(path); q != queued_.end() && !q->second.empty()) {
    a = std::move(q->second.front());
    q->second.pop_front();
  } else if (auto d = defaults_.find(path); d != defaults_.end()) {
    a = d->second;
  } else if (auto d = defaults_.find(""); d != defaults_.end()) {
    a = d->second;
  }
  if (random_delay_.count() > 0) {
    a.delay += std::chrono::milliseconds(rng_() % (random_delay_.count() + 1));
  }
  return a;
}

bool WebhookReceiver::record(ReceivedRequest request, std::function<void()> release) {
  bool held = false;
  {
    std::lock_guard lock(mu_);
    if (holding_) {
      held = true;
      held_.push_back({request.webhook_id(), std::move(release)});
    }
    received_.push_back(std::move(request));
  }
  cv_.notify_all();
  return held;
}

void WebhookReceiver::count_connection() {
  std::lock_guard lock(mu_);
  ++connections_;
}

int WebhookReceiver::connections() const {
  std::lock_guard lock(mu_);
  return connections_;
}

std::map<std::string, int> WebhookReceiver::counts_by_webhook_id() const {
  std::lock_guard lock(mu_);
  std::map<std::string, int> out;
  for (const auto& r : received_) ++out[r.webhook_id()];
  return out;
}

void WebhookReceiver::hold_answers() {
  std::lock_guard lock(mu_);
  holding_ = true;
}

std::vector<std::string> WebhookReceiver::held_webhook_ids() const {
  std::lock_guard lock(mu_);
  std::vector<std::string> out;
  for (const auto& h : held_) out.push_back(h.webhook_id);
  return out;
}

void WebhookReceiver::release_answers() {
  std::vector<Held> held;
  {
    std::lock_guard lock(mu_);
    holding_ = false;
    held.swap(held_);
  }
  for (const auto& h : held) h.release();
}

std::vector<ReceivedRequest> WebhookReceiver::requests(const std::string& path) const {
  std::lock_guard lock(mu_);
  if (path.empty()) return received_;
  std::vector<ReceivedRequest> out;
  for (const auto& r : received_) {
    if (r.path == path) out.push_back(r);
  }
  return out;
}

std::size_t WebhookReceiver::count(const std::string& path) const {
  return requests(path).size();
}

bool WebhookReceiver::wait_for(std::size_t n, std::chrono::milliseconds timeout,
                               const std::string& path) const {
  std::unique_lock lock(mu_);
  return cv_.wait_for(lock, timeout, [&] {
    if (path.empty()) return received_.size() >= n;
    std::size_t c = 0;
    for (const auto& r : received_) c += r.path == path ? 1 : 0;
    return c >= n;
  });
}

std::vector<ReceivedRequest> WebhookReceiver::wait_for_requests(std::size_t n,
                                                                std::chrono::milliseconds timeout,
                                                                const std::string& path) const {
  wait_for(n, timeout, path);
  return requests(path);
}

bool WebhookReceiver::wait_until(
    const std::function<bool(const std::vector<ReceivedRequest>&)>& done,
    std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mu_);
  return cv_.wait_for(lock, timeout, [&] { return done(received_); });
}

void WebhookReceiver::clear() {
  std::lock_guard lock(mu_);
  received_.clear();
}

std::string WebhookReceiver::describe() const {
  std::ostringstream os;
  std::lock_guard lock(mu_);
  os << received_.size() << " request(s) at " << port_ << ":\n";
  for (const auto& r : received_) {
    os << "  " << r.method << ' ' << r.target << " -> " << r.answered_status
       << " webhook-id=" << r.header("webhook-id") << " body=" << r.body.substr(0, 200) << '\n';
  }
  return os.str();
}

}  // namespace leadline_test
