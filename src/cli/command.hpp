// What a subcommand is to the dispatcher: its spec and a function from parsed arguments to
// either success (having reported through Output) or an expected Failure.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "cli/argument_parser.hpp"
#include "cli/output.hpp"

namespace leadline::cli {

inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

// An outcome the operator must hear about: the sentence for stderr and the exit code.
struct Failure {
  int exit_code = kExitFailure;
  std::string message;
};

inline Failure usage_failure(std::string message) {
  return {kExitUsage, std::move(message)};
}
inline Failure failure(std::string message) {
  return {kExitFailure, std::move(message)};
}

template <class T>
using Result = std::variant<T, Failure>;

struct Invocation {
  const ParsedArguments& args;
  Output& out;
};

struct Command {
  CommandSpec spec;
  std::function<std::optional<Failure>(const Invocation&)> run;
};

}  // namespace leadline::cli
