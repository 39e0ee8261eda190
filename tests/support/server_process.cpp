// `leadline serve` as a child process: start, wait for "listening on HOST:PORT", drain its
// output in the background, stop it and remove its temporary database.

#include "support/server_process.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <random>
#include <stdexcept>
#include <system_error>
#include <utility>

#include "support/process.hpp"
#include "support/test_backend.hpp"

namespace leadline_test {

TempDir::TempDir() {
  std::filesystem::path base = std::filesystem::temp_directory_path();
  std::string pattern = (base / "leadline-test-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error(std::string("mkdtemp failed: ") + std::strerror(errno));
  }
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

namespace {

// Parses the port out of the first line containing "listening on HOST:PORT".
bool find_listening_port(const std::string& out, unsigned short& port) {
  static const std::string kMarker = "listening on ";
  auto at = out.find(kMarker);
  if (at == std::string::npos) return false;
  auto line_end = out.find('\n', at);
  if (line_end == std::string::npos) return false;  // wait for the whole line
  std::size_t start = at + kMarker.size();
  std::size_t end = start;
  while (end < line_end && out[end] != ' ' && out[end] != '"' && out[end] != ',' &&
         out[end] != '\t' && out[end] != '\r') {
    ++end;
  }
  std::string address = out.substr(start, end - start);
  auto colon = address.rfind(':');
  if (colon == std::string::npos) return false;
  std::string digits;
  for (std::size_t i = colon + 1; i < address.size() && std::isdigit(address[i]); ++i) {
    digits += address[i];
  }
  if (digits.empty()) return false;
  long value = std::strtol(digits.c_str(), nullptr, 10);
  if (value <= 0 || value > 65535) return false;
  port = static_cast<unsigned short>(value);
  return true;
}

}  // namespace

ServerProcess::ServerProcess(ServerOptions options) : options_(std::move(options)) {
  if (options_.db_url.empty()) {
    dir_ = std::make_unique<TempDir>();
    db_url_ = fresh_database_url(dir_->path());
  } else {
    db_url_ = options_.db_url;
  }
  start();
}

ServerProcess::~ServerProcess() {
  stop();
  if (dir_) drop_fresh_database(db_url_);
  if (!problems_.empty()) {
    ADD_FAILURE() << "leadline serve (" << db_url_ << ") misbehaved:\n" << problems_;
  }
}

void ServerProcess::start() {
  {
    std::lock_guard lock(mu_);
    out_.clear();
    eof_ = false;
  }
  port_ = 0;

  auto [read_fd, write_fd] = make_pipe();
  SpawnSpec spec;
  spec.argv = {leadline_binary(), "serve", "--listen", "127.0.0.1:0", "--db", db_url_};
  if (options_.db_pool_size && db_url_.starts_with("postgres")) {
    spec.argv.push_back("--db-pool-size");
    spec.argv.push_back(std::to_string(*options_.db_pool_size));
  }
  spec.argv.insert(spec.argv.end(), options_.extra_args.begin(), options_.extra_args.end());
  spec.cwd = options_.cwd;
  spec.stdout_fd = write_fd;
  spec.stderr_fd = write_fd;
  try {
    pid_ = spawn_process(spec);
  } catch (...) {
    ::close(read_fd);
    ::close(write_fd);
    throw;
  }
  ::close(write_fd);
  out_fd_ = read_fd;
  reader_ = std::thread([this] { reader_loop(); });

  std::unique_lock lock(mu_);
  bool found = cv_.wait_for(lock, options_.start_timeout,
                            [this] { return find_listening_port(out_, port_) || eof_; });
  if (!found || port_ == 0) {
    std::string seen = out_;
    lock.unlock();
    stop(std::chrono::milliseconds(2'000));
    std::string args;
    for (const auto& a : spec.argv) args += " " + a;
    throw std::runtime_error("leadline serve did not report 'listening on HOST:PORT' (" +
                             std::string(found ? "exited" : "timed out") + ")\ncommand:" + args +
                             "\noutput:\n" + seen);
  }
}

void ServerProcess::reader_loop() {
  char buf[4096];
  for (;;) {
    ssize_t n = ::read(out_fd_, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    std::lock_guard lock(mu_);
    if (n <= 0) {
      eof_ = true;
      cv_.notify_all();
      return;
    }
    out_.append(buf, static_cast<std::size_t>(n));
    // Keep memory bounded for chatty servers: keep the start (startup lines) and the tail.
    if (out_.size() > 8 * 1024 * 1024) out_.erase(64 * 1024, out_.size() - 4 * 1024 * 1024);
    cv_.notify_all();
  }
}

std::filesystem::path ServerProcess::db_file() const {
  static const std::string kPrefix = "sqlite:";
  if (db_url_.rfind(kPrefix, 0) != 0) return {};
  return db_url_.substr(kPrefix.size());
}

std::string ServerProcess::output() const {
  std::lock_guard lock(mu_);
  return out_;
}

bool ServerProcess::running() {
  if (pid_ <= 0) return false;
  int status = 0;
  pid_t r = ::waitpid(pid_, &status, WNOHANG);
  if (r == pid_) {
    pid_ = -1;
    finish_output();
    note_exit(status, "exited by itself");
    return false;
  }
  return true;
}

int ServerProcess::stop(std::chrono::milliseconds grace) {
  int status = -1;
  if (pid_ > 0) {
    ::kill(pid_, SIGTERM);
    bool forced = false;
    if (!wait_for_exit(pid_, status, static_cast<long>(grace.count()))) {
      forced = true;
      ::kill(pid_, SIGKILL);
      wait_for_exit(pid_, status, -1);
    }
    pid_ = -1;
    finish_output();
    if (forced) {
      std::cerr << "[server] leadline serve ignored SIGTERM for " << grace.count()
                << " ms and was killed\n";
    } else {
      note_exit(status, "stopped with SIGTERM");
    }
  }
  finish_output();
  return status;
}

int ServerProcess::kill() {
  int status = -1;
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    wait_for_exit(pid_, status, -1);
    pid_ = -1;
    finish_output();
    // Only a sanitizer report matters here; the SIGKILL is the expected cause of death.
    if (std::string report = sanitizer_report(output()); !report.empty()) {
      add_problem("before SIGKILL it reported: " + report);
    }
  }
  finish_output();
  return status;
}

void ServerProcess::restart() {
  stop();
  start();
}

void ServerProcess::finish_output() {
  if (reader_.joinable()) reader_.join();
  if (out_fd_ >= 0) {
    ::close(out_fd_);
    out_fd_ = -1;
  }
}

void ServerProcess::note_exit(int status, const char* how) {
  int code = exit_code_of(status);
  if (code != 0) add_problem(std::string("it ") + how + " with exit code " + std::to_string(code));
  if (std::string report = sanitizer_report(output()); !report.empty()) {
    add_problem("it reported: " + report);
  }
}

void ServerProcess::add_problem(const std::string& what) {
  std::string out = output();
  if (out.size() > 6000) out = "...\n" + out.substr(out.size() - 6000);
  problems_ += what + "\noutput (tail):\n" + out + "\n";
}

}  // namespace leadline_test
