// POSIX implementation of the raw test socket: non-blocking descriptors driven by poll(2) so
// that every operation has a deadline, and a small response parser over the received bytes.

#include "support/raw_socket.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace leadline_test {

namespace {

using Clock = std::chrono::steady_clock;

int remaining_ms(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return static_cast<int>(std::max<std::int64_t>(0, left.count()));
}

// Waits for `events` on fd until the deadline; true when they (or an error/hangup) arrived.
bool wait_for(int fd, short events, Clock::time_point deadline) {
  for (;;) {
    pollfd p{fd, events, 0};
    int r = ::poll(&p, 1, remaining_ms(deadline));
    if (r > 0) return true;
    if (r == 0) return false;
    if (errno != EINTR) return true;  // let the following call report the error
  }
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string trim(std::string_view s) {
  auto b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  auto e = s.find_last_not_of(" \t");
  return std::string(s.substr(b, e - b + 1));
}

}  // namespace

RawSocket::RawSocket(const std::string& host, unsigned short port, int receive_buffer,
                     std::chrono::milliseconds timeout) {
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd_ < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  if (receive_buffer > 0) {
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer);
  }
  int one = 1;
  ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  if (::inet_pton(AF_INET, host.c_str(), &addr.sin_addr) != 1) {
    ::close(fd_);
    throw std::runtime_error("not an IPv4 address: " + host);
  }
  int r = ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  if (r != 0 && errno != EINPROGRESS) {
    int e = errno;
    ::close(fd_);
    throw std::runtime_error(std::string("connect: ") + std::strerror(e));
  }
  if (r != 0) {
    if (!wait_for(fd_, POLLOUT, Clock::now() + timeout)) {
      ::close(fd_);
      throw std::runtime_error("connect: timed out");
    }
    int err = 0;
    socklen_t len = sizeof err;
    ::getsockopt(fd_, SOL_SOCKET, SO_ERROR, &err, &len);
    if (err != 0) {
      ::close(fd_);
      throw std::runtime_error(std::string("connect: ") + std::strerror(err));
    }
  }
}

RawSocket::~RawSocket() {
  close();
}

RawSocket::RawSocket(RawSocket&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), pending_(std::move(other.pending_)) {}

RawSocket& RawSocket::operator=(RawSocket&& other) noexcept {
  if (this != &other) {
    close();
    fd_ = std::exchange(other.fd_, -1);
    pending_ = std::move(other.pending_);
  }
  return *this;
}

bool RawSocket::send_all(std::string_view bytes, std::chrono::milliseconds timeout) {
  auto deadline = Clock::now() + timeout;
  while (!bytes.empty()) {
    ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n > 0) {
      bytes.remove_prefix(static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (!wait_for(fd_, POLLOUT, deadline) || Clock::now() >= deadline) return false;
      continue;
    }
    return false;
  }
  return true;
}

std::size_t RawSocket::send_some(std::string_view bytes) {
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n > 0) {
      sent += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    break;
  }
  return sent;
}

void RawSocket::shutdown_send() {
  if (fd_ >= 0) ::shutdown(fd_, SHUT_WR);
}

void RawSocket::close(bool reset) {
  if (fd_ < 0) return;
  if (reset) {
    linger l{1, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_LINGER, &l, sizeof l);
  }
  ::close(fd_);
  fd_ = -1;
}

RawSocket::ReadStatus RawSocket::read_some(std::string& out, std::chrono::milliseconds timeout,
                                           std::size_t max) {
  auto deadline = Clock::now() + timeout;
  if (!pending_.empty()) {
    std::size_t take = std::min(max, pending_.size());
    out.append(pending_, 0, take);
    pending_.erase(0, take);
    return ReadStatus::data;
  }
  std::string buf(std::min<std::size_t>(max, 256 * 1024), '\0');
  for (;;) {
    ssize_t n = ::recv(fd_, buf.data(), buf.size(), 0);
    if (n > 0) {
      out.append(buf.data(), static_cast<std::size_t>(n));
      return ReadStatus::data;
    }
    if (n == 0) return ReadStatus::closed;
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) return ReadStatus::closed;  // reset
    if (!wait_for(fd_, POLLIN, deadline)) return ReadStatus::timeout;
  }
}

bool RawSocket::read_until_closed(std::chrono::milliseconds timeout, std::string* out,
                                  std::size_t* total, std::size_t keep) {
  auto deadline = Clock::now() + timeout;
  std::size_t count = 0;
  std::string chunk;
  for (;;) {
    chunk.clear();
    auto status = read_some(chunk, std::chrono::milliseconds(remaining_ms(deadline)));
    count += chunk.size();
    if (out && out->size() < keep) out->append(chunk, 0, keep - out->size());
    if (total) *total = count;
    if (status == ReadStatus::closed) return true;
    if (status == ReadStatus::timeout || Clock::now() >= deadline) return false;
  }
}

std::optional<HttpResponse> RawSocket::read_response(std::chrono::milliseconds timeout,
                                                     std::string* raw_head) {
  auto deadline = Clock::now() + timeout;
  std::string data = std::move(pending_);
  pending_.clear();
  auto fill = [&]() {
    std::string chunk;
    auto status = read_some(chunk, std::chrono::milliseconds(remaining_ms(deadline)));
    data += chunk;
    return status == ReadStatus::data;
  };
  std::size_t head_end;
  while ((head_end = data.find("\r\n\r\n")) == std::string::npos) {
    if (!fill()) return std::nullopt;
  }
  std::string head = data.substr(0, head_end + 4);
  std::size_t length = 0;
  {
    std::size_t pos = head.find("\r\n") + 2;
    while (pos < head.size()) {
      std::size_t eol = head.find("\r\n", pos);
      std::string_view line(head.data() + pos, eol - pos);
      pos = eol + 2;
      auto colon = line.find(':');
      if (colon == std::string_view::npos) continue;
      if (lower(line.substr(0, colon)) == "content-length") {
        length = std::stoul(trim(line.substr(colon + 1)));
      }
    }
  }
  while (data.size() < head.size() + length) {
    if (!fill()) return std::nullopt;
  }
  std::string body = data.substr(head.size(), length);
  pending_ = data.substr(head.size() + length);
  if (raw_head) *raw_head = head;
  return parse_http_response(head, body);
}

std::optional<HttpResponse> parse_http_response(std::string_view head, std::string_view body) {
  auto eol = head.find("\r\n");
  if (eol == std::string_view::npos) return std::nullopt;
  std::string_view status_line = head.substr(0, eol);
  if (!status_line.starts_with("HTTP/1.") || status_line.size() < 12) return std::nullopt;
  HttpResponse r;
  r.status = static_cast<unsigned>(std::stoul(std::string(status_line.substr(9, 3))));
  std::size_t pos = eol + 2;
  while (pos < head.size()) {
    std::size_t end = head.find("\r\n", pos);
    if (end == std::string_view::npos || end == pos) break;
    std::string_view line = head.substr(pos, end - pos);
    pos = end + 2;
    auto colon = line.find(':');
    if (colon == std::string_view::npos) return std::nullopt;
    r.headers.emplace_back(std::string(line.substr(0, colon)), trim(line.substr(colon + 1)));
  }
  r.body = std::string(body);
  boost::system::error_code ec;
  boost::json::value v = boost::json::parse(r.body, ec);
  if (!ec) r.json = std::move(v);
  return r;
}

std::size_t raise_open_file_limit(std::size_t wanted) {
  rlimit lim{};
  if (::getrlimit(RLIMIT_NOFILE, &lim) != 0) return 0;
  if (lim.rlim_cur != RLIM_INFINITY && lim.rlim_cur < wanted) {
    rlim_t target = static_cast<rlim_t>(wanted);
    if (lim.rlim_max != RLIM_INFINITY && target > lim.rlim_max) target = lim.rlim_max;
    rlimit raised{target, lim.rlim_max};
    if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) lim.rlim_cur = target;
  }
  return lim.rlim_cur == RLIM_INFINITY ? wanted : static_cast<std::size_t>(lim.rlim_cur);
}

}  // namespace leadline_test
