// Low-level child process helpers shared by the server and CLI runners: posix_spawn with
// redirected standard streams, an optional working directory and environment overrides.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace leadline_test {

using EnvOverrides = std::vector<std::pair<std::string, std::string>>;

struct SpawnSpec {
  std::vector<std::string> argv;  // argv[0] is the executable path
  EnvOverrides env;               // set (or, with an empty value, unset) on top of ours
  std::filesystem::path cwd;      // empty: inherit
  int stdin_fd = -1;              // -1: /dev/null
  int stdout_fd = -1;             // -1: /dev/null
  int stderr_fd = -1;             // -1: /dev/null
};

// Starts the process; throws std::runtime_error when it cannot be started.
pid_t spawn_process(const SpawnSpec& spec);

// A pipe whose both ends are close-on-exec; {read end, write end}.
std::pair<int, int> make_pipe();

// Waits for the child for at most `timeout_ms` (negative: forever). Returns true and fills
// `status` when it exited, false on timeout.
bool wait_for_exit(pid_t pid, int& status, long timeout_ms);

// Shell-like exit code: the exit status, or 128 + signal number when killed by a signal.
int exit_code_of(int status);

// The path of the built `leadline` binary.
std::string leadline_binary();
// promtool, which `make test-deps` unpacks from Debian's prometheus package.
std::string promtool_binary();

// The first line of an AddressSanitizer, LeakSanitizer, UndefinedBehaviorSanitizer or
// ThreadSanitizer report in a child's output, or "" when there is none. Sanitized builds
// (`make test-asan`, `make test-tsan`) rely on it to fail the test whose child reported.
std::string sanitizer_report(std::string_view output);

}  // namespace leadline_test
