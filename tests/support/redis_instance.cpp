// RedisInstance: redis-server as a child process, ready once it answers PING.

#include "support/redis_instance.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string_view>
#include <thread>

#include "support/process.hpp"

namespace leadline_test {

namespace {

constexpr const char* kRedisServer = "/usr/bin/redis-server";

// A socket connected to 127.0.0.1:port, or -1.
int connect_local(unsigned short port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// The kernel's pick of a free port; redis-server binds it a moment later. Another process
// could take it in between, which start() reports as a failure to come up.
unsigned short free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = 0;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    ::close(fd);
    throw std::runtime_error(std::string("cannot pick a free port: ") + std::strerror(errno));
  }
  ::close(fd);
  return ntohs(address.sin_port);
}

bool answers_ping(unsigned short port) {
  const int fd = connect_local(port);
  if (fd < 0) return false;
  timeval timeout{1, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  constexpr std::string_view kPing = "PING\r\n";
  bool ok =
      ::send(fd, kPing.data(), kPing.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(kPing.size());
  char reply[16] = {};
  ok = ok && ::recv(fd, reply, sizeof reply - 1, 0) > 0 && std::string_view(reply) == "+PONG\r\n";
  ::close(fd);
  return ok;
}

}  // namespace

RedisInstance::RedisInstance() : dir_(std::make_unique<TempDir>()) {
  if (::access(kRedisServer, X_OK) != 0) {
    ADD_FAILURE() << kRedisServer << " is missing; run `make deps` to install redis-server";
    throw std::runtime_error("redis-server is not installed");
  }
  port_ = free_port();
  start();
}

RedisInstance::~RedisInstance() {
  stop();
}

std::string RedisInstance::url() const {
  return "redis://127.0.0.1:" + std::to_string(port_);
}

void RedisInstance::write_config() const {
  std::ofstream config(dir_->path() / "redis.conf");
  config << "bind 127.0.0.1\n"
         << "port " << port_ << "\n"
         << "dir " << dir_->path().string() << "\n"
         << "logfile " << (dir_->path() / "redis.log").string() << "\n"
         << "save \"\"\n"
         << "appendonly no\n"
         << "daemonize no\n";
}

void RedisInstance::start() {
  if (pid_ > 0) return;
  write_config();
  SpawnSpec spec;
  spec.argv = {kRedisServer, (dir_->path() / "redis.conf").string()};
  pid_ = spawn_process(spec);
  if (!wait_until_ready()) {
    std::ifstream log(dir_->path() / "redis.log");
    const std::string text((std::istreambuf_iterator<char>(log)), {});
    stop();
    ADD_FAILURE() << "redis-server did not come up on port " << port_ << "; its log:\n" << text;
    throw std::runtime_error("redis-server did not come up");
  }
}

bool RedisInstance::wait_until_ready() {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    int status = 0;
    if (wait_for_exit(pid_, status, 0)) {
      pid_ = -1;
      return false;
    }
    if (answers_ping(port_)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

void RedisInstance::freeze() {
  if (pid_ > 0) ::kill(pid_, SIGSTOP);
}

void RedisInstance::thaw() {
  if (pid_ > 0) ::kill(pid_, SIGCONT);
}

void RedisInstance::stop() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGCONT);  // a frozen server could not act on SIGTERM
  ::kill(pid_, SIGTERM);
  int status = 0;
  if (!wait_for_exit(pid_, status, 5'000)) {
    ::kill(pid_, SIGKILL);
    wait_for_exit(pid_, status, -1);
  }
  pid_ = -1;
}

}  // namespace leadline_test
