// Parses the words of one subcommand against its CommandSpec and renders its --help text.
#include "cli/argument_parser.hpp"

#include <algorithm>

namespace leadline::cli {

namespace {

const OptionSpec* find_option(const CommandSpec& spec, std::string_view name) {
  const auto it = std::find_if(spec.options.begin(), spec.options.end(),
                               [&](const OptionSpec& o) { return o.name == name; });
  return it == spec.options.end() ? nullptr : &*it;
}

bool is_help_word(std::string_view word) {
  return word == "--help" || word == "-h";
}

bool looks_like_option(std::string_view word) {
  return word.size() > 1 && word.front() == '-';
}

std::string option_synopsis(const OptionSpec& o) {
  std::string s = "--" + o.name;
  if (!o.value_name.empty()) s += " " + o.value_name;
  if (o.repeatable) s += "...";
  return o.required ? s : "[" + s + "]";
}

// Word-wraps `text` after the column `lead` ends, continuing lines at that indent.
std::string wrap(const std::string& lead, const std::string& text) {
  constexpr std::size_t kColumns = 100;
  const std::string indent(lead.size(), ' ');
  std::string out = lead;
  std::size_t column = lead.size();
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    if (column > lead.size() && column + 1 + word.size() > kColumns) {
      out += "\n" + indent;
      column = indent.size();
    } else if (column > lead.size()) {
      out += ' ';
      ++column;
    }
    out += word;
    column += word.size();
    start = end + 1;
  }
  return out + "\n";
}

}  // namespace

bool ParsedArguments::has(std::string_view option) const {
  return options_.contains(option);
}

std::optional<std::string> ParsedArguments::value(std::string_view option) const {
  const auto it = options_.find(option);
  if (it == options_.end() || it->second.empty()) return std::nullopt;
  return it->second.back();
}

std::vector<std::string> ParsedArguments::values(std::string_view option) const {
  const auto it = options_.find(option);
  return it == options_.end() ? std::vector<std::string>{} : it->second;
}

void ParsedArguments::add_option(const std::string& option, std::string value) {
  options_[option].push_back(std::move(value));
}

void ParsedArguments::add_positional(std::string value) {
  positionals_.push_back(std::move(value));
}

ParseOutcome parse_arguments(const CommandSpec& spec, const std::vector<std::string>& args) {
  // Help is honoured even next to mistakes, so that a confused operator can always get it.
  for (const auto& word : args) {
    if (word == "--") break;
    if (is_help_word(word)) return HelpRequested{};
  }

  ParsedArguments parsed;
  bool options_ended = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& word = args[i];
    if (options_ended || !looks_like_option(word)) {
      parsed.add_positional(word);
      continue;
    }
    if (word == "--") {
      options_ended = true;
      continue;
    }
    if (!word.starts_with("--")) return UsageError{"unknown option " + word};

    const auto equals = word.find('=');
    const std::string name =
        word.substr(2, equals == std::string::npos ? std::string::npos : equals - 2);
    const OptionSpec* option = find_option(spec, name);
    if (option == nullptr) return UsageError{"unknown option --" + name};
    if (!option->repeatable && parsed.has(name)) {
      return UsageError{"--" + name + " is given more than once"};
    }

    if (option->value_name.empty()) {
      if (equals != std::string::npos) return UsageError{"--" + name + " takes no value"};
      parsed.add_option(name, "");
      continue;
    }
    if (equals != std::string::npos) {
      parsed.add_option(name, word.substr(equals + 1));
      continue;
    }
    // A following option word means the value was forgotten, not that it is the value;
    // `--name=--odd` still passes such a value on purpose.
    if (i + 1 >= args.size() || (looks_like_option(args[i + 1]) && args[i + 1] != "-")) {
      return UsageError{"--" + name + " needs a value (" + option->value_name + ")"};
    }
    parsed.add_option(name, args[++i]);
  }

  for (const auto& option : spec.options) {
    if (option.required && !parsed.has(option.name)) {
      return UsageError{"missing required option --" + option.name};
    }
  }
  if (parsed.positionals().size() < spec.positionals.size()) {
    return UsageError{"missing argument " + spec.positionals[parsed.positionals().size()].name};
  }
  if (parsed.positionals().size() > spec.positionals.size()) {
    return UsageError{"unexpected argument " + parsed.positionals()[spec.positionals.size()]};
  }
  return parsed;
}

std::string help_text(const CommandSpec& spec) {
  // Plain appends: GCC 12 gives a false -Wrestrict on `" " + string` here (GCC bug 105329).
  std::string out = "Usage: leadline " + spec.name;
  for (const auto& option : spec.options) out.append(" ").append(option_synopsis(option));
  for (const auto& positional : spec.positionals) out.append(" ").append(positional.name);
  out.append("\n\n").append(spec.summary).append("\n");
  if (!spec.details.empty()) out.append("\n").append(spec.details).append("\n");

  std::vector<std::pair<std::string, std::string>> arguments;
  for (const auto& positional : spec.positionals) {
    arguments.emplace_back(positional.name, positional.help);
  }
  std::vector<std::pair<std::string, std::string>> options;
  for (const auto& option : spec.options) {
    std::string left = "--" + option.name;
    if (!option.value_name.empty()) left += " " + option.value_name;
    std::string right = option.help;
    if (option.required) right += " (required)";
    if (option.repeatable) right += " (repeatable)";
    options.emplace_back(std::move(left), std::move(right));
  }
  options.emplace_back("--help", "show this help");

  std::size_t width = 0;
  for (const auto& row : arguments) width = std::max(width, row.first.size());
  for (const auto& row : options) width = std::max(width, row.first.size());
  const auto append_rows = [&](const char* heading, const auto& rows) {
    if (rows.empty()) return;
    out += std::string("\n") + heading + ":\n";
    for (const auto& [left, right] : rows) {
      out += wrap("  " + left + std::string(width - left.size() + 2, ' '), right);
    }
  };
  append_rows("Arguments", arguments);
  append_rows("Options", options);
  return out;
}

}  // namespace leadline::cli
