// Declarative command-line parsing shared by every subcommand: value options, repeatable
// options, boolean switches, positional arguments, and the --help text generated from them.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace leadline::cli {

struct OptionSpec {
  std::string name{};        // without the dashes: "workspace" is given as --workspace
  std::string value_name{};  // "WS"; empty makes the option a boolean switch
  std::string help{};
  bool required = false;
  bool repeatable = false;
};

struct PositionalSpec {
  std::string name{};  // "FILE"
  std::string help{};
};

struct CommandSpec {
  std::string name{};     // "keys create"
  std::string summary{};  // one line for listings and the top of --help
  std::vector<OptionSpec> options{};
  std::vector<PositionalSpec> positionals{};  // every one required
  std::string details{};                      // extra paragraph for --help, may be empty
};

class ParsedArguments {
 public:
  // True when a switch or a value option was given.
  bool has(std::string_view option) const;
  // The value of a non-repeatable option.
  std::optional<std::string> value(std::string_view option) const;
  // Every value of a repeatable option, in command-line order.
  std::vector<std::string> values(std::string_view option) const;
  const std::vector<std::string>& positionals() const { return positionals_; }

  void add_option(const std::string& option, std::string value);
  void add_positional(std::string value);

 private:
  std::map<std::string, std::vector<std::string>, std::less<>> options_;
  std::vector<std::string> positionals_;
};

struct UsageError {
  std::string message;
};
struct HelpRequested {};

using ParseOutcome = std::variant<ParsedArguments, HelpRequested, UsageError>;

// `args` are the words after the command name. Accepts `--name value` and `--name=value`;
// `--` ends the options; `-` alone is a positional (stdin). --help / -h anywhere wins.
ParseOutcome parse_arguments(const CommandSpec& spec, const std::vector<std::string>& args);

std::string help_text(const CommandSpec& spec);

}  // namespace leadline::cli
