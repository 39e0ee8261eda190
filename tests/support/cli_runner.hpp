// Runs the `leadline` command as a child process and captures stdout, stderr and the exit code;
// the JSON helper appends --json and parses stdout as exactly one JSON value.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include "support/process.hpp"

namespace leadline_test {

struct CliOptions {
  std::optional<std::string> stdin_data;  // nullopt: stdin is /dev/null
  EnvOverrides env;                       // an empty value unsets the variable
  std::filesystem::path cwd;              // empty: inherit
  std::chrono::milliseconds timeout{30'000};
};

struct CliResult {
  std::vector<std::string> args;
  int exit_code = -1;  // 128 + signal number when killed by a signal
  bool timed_out = false;
  std::string out;
  std::string err;

  // The command line, exit code and both streams, for failure messages.
  std::string describe() const;
};

// Runs `leadline args...`. A process still running at the timeout is killed (timed_out = true).
CliResult run_cli(const std::vector<std::string>& args, const CliOptions& options = {});

// The same for another program (a path), such as a checker the tests hand output to.
CliResult run_program(const std::string& program, const std::vector<std::string>& args,
                      const CliOptions& options = {});

// Parses text as exactly one JSON value (surrounding whitespace allowed).
std::optional<boost::json::value> parse_json(std::string_view text);

// Runs `leadline args... --json`; throws std::runtime_error (with the whole output) unless the
// exit code is 0 and stdout is exactly one JSON value.
boost::json::value run_cli_json(std::vector<std::string> args, const CliOptions& options = {});

}  // namespace leadline_test
