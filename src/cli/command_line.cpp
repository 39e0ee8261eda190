// Dispatch of `leadline <group> <command> ...` to its Command, with the shared options, help
// texts, exit codes, and the one catch that turns unexpected exceptions into exit code 1.
#include "cli/command_line.hpp"

#include <algorithm>
#include <exception>
#include <iostream>
#include <sstream>

#include "cli/command_groups.hpp"
#include "cli/common_options.hpp"

namespace leadline::cli {

namespace {

std::vector<Command> all_commands() {
  std::vector<Command> commands;
  for (auto group : {serve_commands, workspaces_commands, keys_commands, users_commands,
                     people_commands, import_commands}) {
    for (auto& command : group()) {
      auto common = common_options();
      command.spec.options.insert(command.spec.options.end(), common.begin(), common.end());
      commands.push_back(std::move(command));
    }
  }
  return commands;
}

std::vector<std::string> split_words(const std::string& name) {
  std::vector<std::string> words;
  std::istringstream in(name);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

bool names_command(const std::vector<std::string>& words, const Command& command) {
  const auto name = split_words(command.spec.name);
  return words.size() >= name.size() && std::equal(name.begin(), name.end(), words.begin());
}

std::string overview(const std::vector<Command>& commands, const std::string& group) {
  std::size_t width = 0;
  for (const auto& c : commands) width = std::max(width, c.spec.name.size());
  std::string out = group.empty()
                        ? "Usage: leadline COMMAND [OPTIONS]\n\nOperator command of the "
                          "leadline API service.\n\nCommands:\n"
                        : "Usage: leadline " + group + " COMMAND [OPTIONS]\n\nCommands:\n";
  for (const auto& c : commands) {
    if (!group.empty() && split_words(c.spec.name).front() != group) continue;
    out += "  " + c.spec.name + std::string(width - c.spec.name.size() + 2, ' ') + c.spec.summary +
           "\n";
  }
  out += "\nEvery command takes --db URL, --json and --help.\n";
  return out;
}

bool is_group(const std::vector<Command>& commands, const std::string& word) {
  return std::any_of(commands.begin(), commands.end(), [&](const Command& c) {
    const auto name = split_words(c.spec.name);
    return name.size() > 1 && name.front() == word;
  });
}

int usage_error(const std::string& where, const std::string& message) {
  std::cerr << message << "\nRun 'leadline " << where << " --help' for usage.\n";
  return kExitUsage;
}

// `leadline --db URL keys list ...` reads as naturally as putting --db last; the shared
// options are moved behind the command name so that its parser sees them.
std::vector<std::string> hoist_common_options(std::vector<std::string> words) {
  std::vector<std::string> hoisted;
  auto it = words.begin();
  while (it != words.end()) {
    if (*it == "--json" || it->starts_with("--db=")) {
      hoisted.push_back(*it++);
    } else if (*it == "--db" && it + 1 != words.end()) {
      hoisted.push_back(*it++);
      hoisted.push_back(*it++);
    } else {
      break;
    }
  }
  if (it == words.end()) return {};  // options but no command: the same as no command
  std::vector<std::string> reordered(it, words.end());
  reordered.insert(reordered.end(), hoisted.begin(), hoisted.end());
  return reordered;
}

int dispatch(std::vector<std::string> words) {
  const auto commands = all_commands();
  words = hoist_common_options(std::move(words));
  if (!words.empty() && words.front() == "help") {
    words.erase(words.begin());
    words.emplace_back("--help");
  }
  if (words.empty() || words.front() == "--help" || words.front() == "-h") {
    (words.empty() ? std::cerr : std::cout) << overview(commands, "");
    return words.empty() ? kExitUsage : 0;
  }

  const auto command = std::find_if(commands.begin(), commands.end(),
                                    [&](const Command& c) { return names_command(words, c); });
  if (command == commands.end()) {
    const std::string& group = words.front();
    if (!is_group(commands, group)) {
      std::cerr << "unknown command '" << group << "'\n" << overview(commands, "");
      return kExitUsage;
    }
    if (words.size() > 1 && (words[1] == "--help" || words[1] == "-h")) {
      std::cout << overview(commands, group);
      return 0;
    }
    std::cerr << (words.size() > 1 ? "unknown command '" + group + " " + words[1] + "'\n"
                                   : "'" + group + "' needs a command\n")
              << overview(commands, group);
    return kExitUsage;
  }

  const auto name_length = split_words(command->spec.name).size();
  const std::vector<std::string> rest(words.begin() + static_cast<long>(name_length), words.end());
  auto parsed = parse_arguments(command->spec, rest);
  if (std::holds_alternative<HelpRequested>(parsed)) {
    std::cout << help_text(command->spec);
    return 0;
  }
  if (const auto* error = std::get_if<UsageError>(&parsed)) {
    return usage_error(command->spec.name, error->message);
  }

  const auto& args = std::get<ParsedArguments>(parsed);
  Output out(args.has("json"), std::cout);
  const auto failed = command->run({args, out});
  if (!failed) return 0;
  if (failed->exit_code == kExitUsage) return usage_error(command->spec.name, failed->message);
  std::cerr << failed->message << '\n';
  return failed->exit_code;
}

}  // namespace

int run(int argc, char** argv) {
  try {
    return dispatch(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const std::exception& e) {
    std::cerr << "leadline: " << e.what() << '\n';
  } catch (...) {
    std::cerr << "leadline: unexpected error\n";
  }
  return kExitFailure;
}

}  // namespace leadline::cli
