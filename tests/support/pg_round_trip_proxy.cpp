// One thread accepts; each connection gets a thread that relays both directions with poll() and
// reads the client's protocol messages as they pass: an untyped startup packet (after any SSL or
// GSS encryption request, which the server declines here), then typed messages.
#include "support/pg_round_trip_proxy.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

namespace leadline_test {

namespace {

constexpr std::uint32_t kSslRequest = 80877103;
constexpr std::uint32_t kGssRequest = 80877104;

std::uint32_t read_u32(const unsigned char* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
         std::uint32_t{p[3]};
}

// Splits the client's byte stream into messages and counts Sync and Query.
class ClientStream {
 public:
  explicit ClientStream(std::atomic<long>& trips) : trips_(trips) {}

  void feed(const unsigned char* data, std::size_t size) {
    buffer_.insert(buffer_.end(), data, data + size);
    std::size_t at = 0;
    while (true) {
      const std::size_t header = started_ ? 5 : 8;
      if (buffer_.size() - at < header) break;
      const unsigned char* p = buffer_.data() + at;
      const std::size_t length = started_ ? 1 + read_u32(p + 1) : read_u32(p);
      if (buffer_.size() - at < length) break;
      if (started_) {
        if (p[0] == 'S' || p[0] == 'Q') ++trips_;
      } else {
        const std::uint32_t code = read_u32(p + 4);
        started_ = code != kSslRequest && code != kGssRequest;
      }
      at += length;
    }
    buffer_.erase(buffer_.begin(), buffer_.begin() + static_cast<std::ptrdiff_t>(at));
  }

 private:
  std::atomic<long>& trips_;
  std::vector<unsigned char> buffer_;
  bool started_ = false;
};

int connect_to(const std::string& host, unsigned short port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  ::inet_pton(AF_INET, host.c_str(), &addr.sin_addr);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

bool send_all(int fd, const unsigned char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

struct PgRoundTripProxy::State {
  std::string upstream_host;
  unsigned short upstream_port = 0;
  int listener = -1;
  unsigned short port = 0;
  std::atomic<long> trips{0};
  std::atomic<bool> stopping{false};
  std::mutex mutex;
  std::vector<std::thread> relays;
  std::vector<int> sockets;
  std::thread acceptor;

  void relay(int client, int server) {
    ClientStream stream(trips);
    unsigned char buf[65536];
    pollfd fds[2] = {{client, POLLIN, 0}, {server, POLLIN, 0}};
    while (!stopping) {
      if (::poll(fds, 2, 200) < 0) break;
      if (fds[0].revents) {
        const ssize_t n = ::recv(client, buf, sizeof buf, 0);
        if (n <= 0) break;
        stream.feed(buf, static_cast<std::size_t>(n));
        if (!send_all(server, buf, static_cast<std::size_t>(n))) break;
      }
      if (fds[1].revents) {
        const ssize_t n = ::recv(server, buf, sizeof buf, 0);
        if (n <= 0 || !send_all(client, buf, static_cast<std::size_t>(n))) break;
      }
    }
    ::shutdown(client, SHUT_RDWR);
    ::shutdown(server, SHUT_RDWR);
  }

  void accept_loop() {
    while (!stopping) {
      const int client = ::accept(listener, nullptr, nullptr);
      if (client < 0) break;
      const int server = connect_to(upstream_host, upstream_port);
      if (server < 0) {
        ::close(client);
        continue;
      }
      const std::lock_guard lock(mutex);
      sockets.push_back(client);
      sockets.push_back(server);
      relays.emplace_back([this, client, server] { relay(client, server); });
    }
  }
};

PgRoundTripProxy::PgRoundTripProxy(const std::string& server_url)
    : state_(std::make_shared<State>()) {
  // postgres://USER@HOST:PORT[/DB]
  const std::size_t at = server_url.find('@');
  const std::size_t colon = server_url.find(':', at);
  const std::size_t end = server_url.find('/', colon);
  if (at == std::string::npos || colon == std::string::npos) {
    throw std::runtime_error("cannot read host and port of " + server_url);
  }
  state_->upstream_host = server_url.substr(at + 1, colon - at - 1);
  state_->upstream_port = static_cast<unsigned short>(
      std::stoi(server_url.substr(colon + 1, end == std::string::npos ? end : end - colon - 1)));

  state_->listener = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = 0;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (::bind(state_->listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(state_->listener, 64) != 0 ||
      ::getsockname(state_->listener, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    throw std::runtime_error("the round-trip proxy cannot listen");
  }
  state_->port = ntohs(addr.sin_port);
  state_->acceptor = std::thread([s = state_.get()] { s->accept_loop(); });
}

PgRoundTripProxy::~PgRoundTripProxy() {
  state_->stopping = true;
  ::shutdown(state_->listener, SHUT_RDWR);
  state_->acceptor.join();
  ::close(state_->listener);
  for (auto& t : state_->relays) t.join();
  for (const int fd : state_->sockets) ::close(fd);
}

std::string PgRoundTripProxy::through(const std::string& url) const {
  const std::size_t at = url.find('@');
  const std::size_t colon = url.find(':', at);
  const std::size_t end = url.find('/', colon);
  std::string out = url.substr(0, colon + 1);
  out += std::to_string(state_->port);
  if (end != std::string::npos) out += url.substr(end);
  return out;
}

long PgRoundTripProxy::round_trips() const {
  return state_->trips.load();
}

}  // namespace leadline_test
