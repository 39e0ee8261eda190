// Child process helpers for the black-box suites: posix_spawn with pipes, polling waits.

#include "support/process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace leadline_test {
namespace {

// Writing to a pipe or socket the peer closed must be an error, not a fatal signal.
const bool kIgnoreSigpipe = [] {
  ::signal(SIGPIPE, SIG_IGN);
  return true;
}();

}  // namespace

std::string leadline_binary() {
  (void)kIgnoreSigpipe;
  return LEADLINE_BINARY;
}

std::string promtool_binary() {
  return LEADLINE_PROMTOOL;
}

std::pair<int, int> make_pipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    throw std::runtime_error(std::string("pipe2 failed: ") + std::strerror(errno));
  }
  return {fds[0], fds[1]};
}

pid_t spawn_process(const SpawnSpec& spec) {
  (void)kIgnoreSigpipe;
  if (spec.argv.empty()) throw std::runtime_error("spawn_process: empty argv");

  std::map<std::string, std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    std::string entry(*e);
    auto eq = entry.find('=');
    if (eq == std::string::npos) continue;
    env[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  for (const auto& [name, value] : spec.env) {
    if (value.empty()) {
      env.erase(name);
    } else {
      env[name] = value;
    }
  }
  std::vector<std::string> env_strings;
  env_strings.reserve(env.size());
  for (const auto& [name, value] : env) env_strings.push_back(name + "=" + value);
  std::vector<char*> envp;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);

  std::vector<std::string> args = spec.argv;
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  auto redirect = [&fa](int fd, int target, int flags) {
    if (fd >= 0) {
      posix_spawn_file_actions_adddup2(&fa, fd, target);
    } else {
      posix_spawn_file_actions_addopen(&fa, target, "/dev/null", flags, 0);
    }
  };
  redirect(spec.stdin_fd, 0, O_RDONLY);
  redirect(spec.stdout_fd, 1, O_WRONLY);
  redirect(spec.stderr_fd, 2, O_WRONLY);
  std::string cwd = spec.cwd.string();
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&fa, cwd.c_str());

  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);

  pid_t pid = -1;
  int rc = ::posix_spawn(&pid, argv[0], &fa, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    throw std::runtime_error("cannot start " + spec.argv[0] + ": " + std::strerror(rc));
  }
  return pid;
}

bool wait_for_exit(pid_t pid, int& status, long timeout_ms) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    pid_t r = ::waitpid(pid, &status, timeout_ms < 0 ? 0 : WNOHANG);
    if (r == pid) return true;
    if (r < 0 && errno != EINTR) {
      status = -1;
      return true;
    }
    if (timeout_ms >= 0 && std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

std::string sanitizer_report(std::string_view output) {
  static constexpr std::string_view kMarkers[] = {
      "ERROR: AddressSanitizer",
      "ERROR: LeakSanitizer",
      "WARNING: ThreadSanitizer",
      "ERROR: ThreadSanitizer",
      "SUMMARY: UndefinedBehaviorSanitizer",
      ": runtime error: ",
  };
  std::size_t first = std::string_view::npos;
  for (std::string_view marker : kMarkers) first = std::min(first, output.find(marker));
  if (first == std::string_view::npos) return {};
  std::size_t begin = output.rfind('\n', first);
  begin = begin == std::string_view::npos ? 0 : begin + 1;
  std::size_t end = output.find('\n', first);
  return std::string(output.substr(begin, end == std::string_view::npos ? end : end - begin));
}

int exit_code_of(int status) {
  if (status == -1) return -1;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

}  // namespace leadline_test
