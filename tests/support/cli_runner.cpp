// Captures the output of `leadline` subcommands: stdin fed and stdout/stderr drained with poll.

#include "support/cli_runner.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace leadline_test {

std::string CliResult::describe() const {
  std::ostringstream os;
  os << "command: leadline";
  for (const auto& a : args) os << ' ' << a;
  os << "\nexit code: " << exit_code << (timed_out ? " (timed out, killed)" : "") << "\nstdout:\n"
     << out << "\nstderr:\n"
     << err << '\n';
  return os.str();
}

CliResult run_cli(const std::vector<std::string>& args, const CliOptions& options) {
  return run_program(leadline_binary(), args, options);
}

CliResult run_program(const std::string& program, const std::vector<std::string>& args,
                      const CliOptions& options) {
  CliResult result;
  result.args = args;

  auto [out_r, out_w] = make_pipe();
  auto [err_r, err_w] = make_pipe();
  int in_r = -1;
  int in_w = -1;
  if (options.stdin_data) std::tie(in_r, in_w) = make_pipe();

  SpawnSpec spec;
  spec.argv.push_back(program);
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.env = options.env;
  spec.cwd = options.cwd;
  spec.stdin_fd = in_r;
  spec.stdout_fd = out_w;
  spec.stderr_fd = err_w;
  pid_t pid = -1;
  try {
    pid = spawn_process(spec);
  } catch (...) {
    for (int fd : {out_r, out_w, err_r, err_w, in_r, in_w}) {
      if (fd >= 0) ::close(fd);
    }
    throw;
  }
  ::close(out_w);
  ::close(err_w);
  if (in_r >= 0) ::close(in_r);

  std::string pending_in = options.stdin_data.value_or("");
  std::size_t written = 0;
  if (in_w >= 0) {
    ::fcntl(in_w, F_SETFL, ::fcntl(in_w, F_GETFL) | O_NONBLOCK);
    if (pending_in.empty()) {
      ::close(in_w);
      in_w = -1;
    }
  }

  auto deadline = std::chrono::steady_clock::now() + options.timeout;
  bool out_open = true;
  bool err_open = true;
  char buf[8192];
  while (out_open || err_open) {
    auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      result.timed_out = true;
      ::kill(pid, SIGKILL);
      break;
    }
    std::vector<pollfd> fds;
    if (out_open) fds.push_back({out_r, POLLIN, 0});
    if (err_open) fds.push_back({err_r, POLLIN, 0});
    if (in_w >= 0) fds.push_back({in_w, POLLOUT, 0});
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count();
    int n = ::poll(fds.data(), fds.size(), static_cast<int>(std::min<long long>(left, 200)));
    if (n < 0 && errno != EINTR) break;
    for (const auto& p : fds) {
      if (p.revents == 0) continue;
      if (p.fd == in_w) {
        ssize_t w = ::write(in_w, pending_in.data() + written, pending_in.size() - written);
        if (w > 0) written += static_cast<std::size_t>(w);
        if (w < 0 && errno != EAGAIN && errno != EINTR) written = pending_in.size();
        if (written >= pending_in.size()) {
          ::close(in_w);
          in_w = -1;
        }
        continue;
      }
      ssize_t r = ::read(p.fd, buf, sizeof buf);
      if (r > 0) {
        (p.fd == out_r ? result.out : result.err).append(buf, static_cast<std::size_t>(r));
      } else if (r == 0 || (errno != EINTR && errno != EAGAIN)) {
        (p.fd == out_r ? out_open : err_open) = false;
      }
    }
  }
  if (in_w >= 0) ::close(in_w);
  ::close(out_r);
  ::close(err_r);

  int status = -1;
  if (!wait_for_exit(pid, status, result.timed_out ? -1 : 10'000)) {
    result.timed_out = true;
    ::kill(pid, SIGKILL);
    wait_for_exit(pid, status, -1);
  }
  result.exit_code = exit_code_of(status);
  if (std::string report = sanitizer_report(result.err); !report.empty()) {
    ADD_FAILURE() << "leadline reported a sanitizer error: " << report << '\n' << result.describe();
  }
  return result;
}

std::optional<boost::json::value> parse_json(std::string_view text) {
  boost::system::error_code ec;
  boost::json::value v = boost::json::parse(text, ec);
  if (ec) return std::nullopt;
  return v;
}

boost::json::value run_cli_json(std::vector<std::string> args, const CliOptions& options) {
  args.push_back("--json");
  CliResult r = run_cli(args, options);
  if (r.exit_code != 0 || r.timed_out) {
    throw std::runtime_error("leadline command failed\n" + r.describe());
  }
  auto v = parse_json(r.out);
  if (!v) throw std::runtime_error("stdout is not exactly one JSON value\n" + r.describe());
  return *v;
}

}  // namespace leadline_test
