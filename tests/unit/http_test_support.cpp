// Implementation of the HTTP tests' handler, background server and raw client.
#include "http_test_support.hpp"

#include <algorithm>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <cctype>
#include <stdexcept>
#include <thread>

namespace leadline::http::testing {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace beast_http = boost::beast::http;
using boost::system::error_code;

namespace {
// Generous: only reached when the server misbehaves, so that a bug fails instead of hanging.
constexpr std::chrono::seconds kClientTimeout{5};
}  // namespace

void EchoHandler::handle(const Request& request, Response& response) {
  if (request.target == "/throw") throw std::runtime_error("handler failure");
  if (request.target == "/slow") {
    ++slow_started;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  if (request.target == "/close") response.close = true;
  response.content_type = "text/plain";
  if (const auto echo = request.header("x-echo"); !echo.empty()) {
    response.headers.emplace_back("X-Echoed", std::string(echo));
  }
  response.body = std::string(request.method) + " " + std::string(request.target) + "|" +
                  std::string(request.peer_ip) + "|" + std::to_string(request.headers.size()) +
                  "|" + std::string(request.body);
}

void EchoHandler::render_refusal(const Refusal& refusal, const Request* /*head*/,
                                 Response& response) {
  switch (refusal.kind) {
    case RefusalKind::kMalformedRequest:
      response.status = 400;
      response.body = refusal_body("malformed");
      return;
    case RefusalKind::kHeadersTooLarge:
      response.status = 431;
      response.body = refusal_body("headers_too_large", refusal.limit);
      return;
    case RefusalKind::kBodyTooLarge:
      response.status = 413;
      response.body = refusal_body("body_too_large", refusal.limit);
      return;
    case RefusalKind::kOverConnectionLimit:
      response.status = 503;
      response.body = refusal_body("over_connection_limit");
      return;
    case RefusalKind::kHandlerFailed:
      response.status = 500;
      response.body = refusal_body("handler_failed");
      return;
  }
}

std::string refusal_body(std::string_view kind, std::size_t limit) {
  return R"({"refused":")" + std::string(kind) + R"(","limit":)" + std::to_string(limit) + "}";
}

ServerConfig test_config() {
  ServerConfig config;
  config.host = "127.0.0.1";
  config.port = 0;
  config.threads = 2;
  return config;
}

RunningServer::RunningServer(ServerConfig config, Handler& handler)
    : server_(std::move(config), handler) {
  address_ = server_.listen();
  port_ = static_cast<unsigned short>(std::stoi(address_.substr(address_.rfind(':') + 1)));
  running_ = std::async(std::launch::async, [this] { server_.run(); });
}

RunningServer::~RunningServer() {
  server_.stop();
  if (running_.valid()) running_.wait();
}

bool RunningServer::stop_and_wait(std::chrono::milliseconds limit) {
  server_.stop();
  return running_.wait_for(limit) == std::future_status::ready;
}

std::string Reply::header(const std::string& lower_name) const {
  const auto found = headers.find(lower_name);
  return found == headers.end() ? std::string() : found->second;
}

RawClient::RawClient(unsigned short port) : stream_(ioc_) {
  error_code result;
  stream_.expires_after(kClientTimeout);
  stream_.async_connect({asio::ip::make_address("127.0.0.1"), port},
                        [&](error_code ec) { result = ec; });
  run();
  if (result) throw std::runtime_error("test client cannot connect: " + result.message());
}

void RawClient::run() {
  ioc_.restart();
  ioc_.run();
}

error_code RawClient::send(std::string_view bytes) {
  error_code result;
  stream_.expires_after(kClientTimeout);
  asio::async_write(stream_, asio::buffer(bytes), [&](error_code ec, std::size_t) { result = ec; });
  run();
  return result;
}

Reply RawClient::read_reply(bool head_request) {
  beast_http::response_parser<beast_http::string_body> parser;
  parser.body_limit(16 * 1024 * 1024);
  parser.skip(head_request);
  Reply reply;
  stream_.expires_after(kClientTimeout);
  beast_http::async_read(stream_, buffer_, parser,
                         [&](error_code ec, std::size_t) { reply.error = ec; });
  run();
  if (reply.error) return reply;
  const auto& message = parser.get();
  reply.status = message.result_int();
  reply.body = message.body();
  reply.keep_alive = message.keep_alive();
  for (const auto& field : message) {
    std::string name(field.name_string());
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    reply.headers[name] = std::string(field.value());
  }
  return reply;
}

bool RawClient::wait_for_close() {
  buffer_.clear();
  stream_.expires_after(kClientTimeout);
  error_code result;
  std::function<void()> read_more = [&] {
    stream_.async_read_some(buffer_.prepare(4096), [&](error_code ec, std::size_t) {
      result = ec;
      if (!ec) read_more();  // data the server still sent is not what we wait for
    });
  };
  read_more();
  run();
  return result && result != beast::error::timeout;
}

void RawClient::close() {
  error_code ignored;
  stream_.socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  stream_.close();
}

bool eventually(const std::function<bool()>& condition) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (std::chrono::steady_clock::now() < deadline) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return condition();
}

}  // namespace leadline::http::testing
