// Boost.Beast implementation of the test HTTP client; every operation runs asynchronously on a
// private io_context so that timeouts apply, and reads overlap writes so that early answers
// (413) are seen even when the server stops reading.

#include "support/http_client.hpp"

#include "support/contract_log.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cctype>
#include <sstream>
#include <stdexcept>

namespace leadline_test {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

HttpResponse convert(http::response<http::string_body>&& res) {
  HttpResponse out;
  out.status = res.result_int();
  for (const auto& field : res) {
    out.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
  }
  out.body = std::move(res.body());
  boost::system::error_code ec;
  boost::json::value v = boost::json::parse(out.body, ec);
  if (!ec) out.json = std::move(v);
  return out;
}

}  // namespace

bool has_header(const Headers& headers, std::string_view name) {
  for (const auto& [n, v] : headers) {
    if (iequals(n, name)) return true;
  }
  return false;
}

std::string header_value(const Headers& headers, std::string_view name) {
  for (const auto& [n, v] : headers) {
    if (iequals(n, name)) return v;
  }
  return {};
}

std::vector<std::string> header_values(const Headers& headers, std::string_view name) {
  std::vector<std::string> values;
  for (const auto& [n, v] : headers) {
    if (iequals(n, name)) values.push_back(v);
  }
  return values;
}

bool HttpResponse::has_header(std::string_view name) const {
  return leadline_test::has_header(headers, name);
}

std::string HttpResponse::header(std::string_view name) const {
  return header_value(headers, name);
}

std::vector<std::string> HttpResponse::header_values(std::string_view name) const {
  return leadline_test::header_values(headers, name);
}

const boost::json::object& HttpResponse::object() const {
  if (!json || !json->is_object()) {
    throw std::runtime_error("response body is not a JSON object\n" + describe());
  }
  return json->as_object();
}

const boost::json::value& HttpResponse::data() const {
  const auto& o = object();
  auto it = o.find("data");
  if (it == o.end()) throw std::runtime_error("response has no 'data'\n" + describe());
  return it->value();
}

std::string HttpResponse::describe() const {
  std::ostringstream os;
  os << "HTTP " << status << '\n';
  for (const auto& [n, v] : headers) os << n << ": " << v << '\n';
  os << '\n' << (body.size() > 4000 ? body.substr(0, 4000) + "..." : body) << '\n';
  return os.str();
}

struct HttpClient::Impl {
  std::string host;
  unsigned short port;
  asio::io_context ioc;
  std::optional<beast::tcp_stream> stream;
  beast::flat_buffer buffer;
  bool used = false;  // a request already completed on this connection

  void run() {
    ioc.restart();
    ioc.run();
  }

  void connect(std::chrono::milliseconds timeout) {
    close();
    stream.emplace(ioc);
    buffer.clear();
    used = false;
    tcp::endpoint ep(asio::ip::make_address(host), port);
    boost::system::error_code result;
    stream->expires_after(timeout);
    stream->async_connect(ep, [&](boost::system::error_code ec) { result = ec; });
    run();
    if (result) {
      stream.reset();
      throw std::runtime_error("cannot connect to " + host + ":" + std::to_string(port) + ": " +
                               result.message());
    }
  }

  void close() {
    if (stream) {
      boost::system::error_code ignored;
      stream->socket().shutdown(tcp::socket::shutdown_both, ignored);
      stream->socket().close(ignored);
      stream.reset();
    }
  }
};

HttpClient::HttpClient(std::string host, unsigned short port) : impl_(std::make_unique<Impl>()) {
  impl_->host = std::move(host);
  impl_->port = port;
}

HttpClient::~HttpClient() {
  impl_->close();
}

void HttpClient::connect() {
  impl_->connect(timeout);
}

void HttpClient::close() {
  impl_->close();
}

HttpResponse HttpClient::request(std::string_view method, std::string_view target,
                                 std::optional<std::string> body, const Headers& headers) {
  http::request<http::string_body> req;
  req.method_string(method);
  req.target(target);
  req.version(11);
  req.set(http::field::host, impl_->host + ":" + std::to_string(impl_->port));
  req.set(http::field::user_agent, "leadline-tests");
  bool has_content_type = false;
  for (const auto& [name, value] : headers) {
    if (iequals(name, "Content-Type")) {
      has_content_type = true;
      if (value.empty()) continue;
    }
    req.insert(name, value);
  }
  if (body) {
    if (!has_content_type) req.set(http::field::content_type, "application/json");
    req.body() = std::move(*body);
    req.prepare_payload();
  }

  for (int attempt = 0;; ++attempt) {
    if (!impl_->stream) impl_->connect(timeout);
    bool reused = impl_->used;

    boost::system::error_code write_ec;
    boost::system::error_code read_ec;
    bool write_done = false;
    bool read_done = false;
    http::response_parser<http::string_body> parser;
    parser.body_limit(64 * 1024 * 1024);
    // A response to HEAD announces the body's length but carries none.
    parser.skip(method == "HEAD");
    impl_->stream->expires_after(timeout);
    http::async_write(*impl_->stream, req, [&](boost::system::error_code ec, std::size_t) {
      write_ec = ec;
      write_done = true;
    });
    http::async_read(*impl_->stream, impl_->buffer, parser,
                     [&](boost::system::error_code ec, std::size_t) {
                       read_ec = ec;
                       read_done = true;
                       // An early answer (e.g. 413) or a failure: stop a still-running write.
                       if (ec || !write_done) {
                         boost::system::error_code ignored;
                         impl_->stream->socket().cancel(ignored);
                       }
                     });
    impl_->run();

    if (read_done && !read_ec) {
      bool keep = write_done && !write_ec && parser.get().keep_alive();
      HttpResponse res = convert(parser.release());
      impl_->used = true;
      if (!keep) impl_->close();
      if (contract_checked) record_for_contract_check(method, target, res);
      return res;
    }

    bool nothing_received = !parser.got_some();
    impl_->close();
    if (attempt == 0 && reused && nothing_received && read_ec != beast::error::timeout) {
      continue;  // the server closed an idle keep-alive connection: reconnect once
    }
    std::string why = read_ec ? read_ec.message() : write_ec.message();
    throw std::runtime_error("HTTP " + std::string(method) + " " + std::string(target) +
                             " failed: " + why);
  }
}

std::optional<HttpResponse> raw_exchange(const std::string& host, unsigned short port,
                                         std::string_view bytes,
                                         std::chrono::milliseconds timeout) {
  asio::io_context ioc;
  beast::tcp_stream stream(ioc);
  tcp::endpoint ep(asio::ip::make_address(host), port);
  boost::system::error_code connect_ec;
  stream.expires_after(timeout);
  stream.async_connect(ep, [&](boost::system::error_code ec) { connect_ec = ec; });
  ioc.run();
  if (connect_ec) throw std::runtime_error("cannot connect: " + connect_ec.message());

  std::string payload(bytes);
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(64 * 1024 * 1024);
  boost::system::error_code read_ec;
  stream.expires_after(timeout);
  asio::async_write(stream, asio::buffer(payload), [&](boost::system::error_code, std::size_t) {});
  http::async_read(stream, buffer, parser, [&](boost::system::error_code ec, std::size_t) {
    read_ec = ec;
    boost::system::error_code ignored;
    stream.socket().cancel(ignored);
  });
  ioc.restart();
  ioc.run();
  boost::system::error_code ignored;
  stream.socket().close(ignored);
  if (read_ec) return std::nullopt;
  return convert(parser.release());
}

std::string url_encode(std::string_view value) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : value) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

}  // namespace leadline_test
