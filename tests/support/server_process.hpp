// Starts the real `leadline serve` on 127.0.0.1 with a free port and a fresh SQLite database in
// a temporary directory; stops it (SIGTERM, then SIGKILL) and removes the directory on destruction.
// A server that exits by itself, exits non-zero when stopped, or prints a sanitizer report fails
// the running test; a crash can be simulated with kill() and followed by restart().
#pragma once

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace leadline_test {

// A directory under the system temporary directory, removed recursively on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

struct ServerOptions {
  std::vector<std::string> extra_args;  // e.g. {"--rate-limit", "5/2s"}
  std::string db_url;                   // empty: a fresh database in a temporary directory
  std::filesystem::path cwd;            // the server's working directory; empty: inherit
  std::chrono::milliseconds start_timeout{10'000};
  // --db-pool-size for a PostgreSQL database; nullopt leaves serve's default (16). Tests keep
  // a small pool: each connection costs the test server a backend and its catalog reads at
  // every start, most of the PostgreSQL suites' CPU with 16 (RELIABILITY.md, "Suite timings").
  std::optional<unsigned> db_pool_size = 4;
};

class ServerProcess {
 public:
  explicit ServerProcess(ServerOptions options = {});
  ~ServerProcess();
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  const std::string& host() const { return host_; }
  unsigned short port() const { return port_; }
  // The --db value the server was started with; CLI commands use it to share the database.
  const std::string& db_url() const { return db_url_; }
  // The SQLite file behind db_url() (empty for non-sqlite URLs).
  std::filesystem::path db_file() const;
  // Everything the server printed on stdout and stderr so far.
  std::string output() const;
  bool running();
  // The server's process id (-1 when it is not running).
  pid_t pid() const { return pid_; }
  // SIGTERM, wait up to `grace`, then SIGKILL. Returns the wait status (or -1 if already gone).
  int stop(std::chrono::milliseconds grace = std::chrono::milliseconds(5'000));
  // SIGKILL at once, as a crash would; returns the wait status. The death is not a failure.
  int kill();
  // Starts the server again with the same arguments on the same database (after stop() or
  // kill(); a running server is stopped first). The port usually changes; output() restarts.
  void restart();

 private:
  void start();
  void reader_loop();
  void finish_output();
  // Records an unexpected exit status or a sanitizer report of the process that just ended.
  void note_exit(int status, const char* how);
  void add_problem(const std::string& what);

  std::unique_ptr<TempDir> dir_;
  ServerOptions options_;
  std::string problems_;  // reported as a test failure on destruction
  std::string host_ = "127.0.0.1";
  unsigned short port_ = 0;
  std::string db_url_;
  pid_t pid_ = -1;
  int out_fd_ = -1;
  std::thread reader_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::string out_;
  bool eof_ = false;
};

}  // namespace leadline_test
