// Parses the words of one subcommand against its CommandSpec with Boost.Program_options, and
// renders the --help text of a CommandSpec.
#include "cli/argument_parser.hpp"

#include <algorithm>
#include <boost/program_options/cmdline.hpp>
#include <boost/program_options/errors.hpp>
#include <boost/program_options/options_description.hpp>
#include <boost/program_options/parsers.hpp>
#include <boost/program_options/value_semantic.hpp>
#include <boost/program_options/variables_map.hpp>

namespace leadline::cli {

namespace {

namespace po = boost::program_options;
namespace style = po::command_line_style;

// `--name value` and `--name=value`, full names only (no allow_guessing). Short options are on
// only so that Program_options refuses `-x` as an unknown option rather than a positional.
constexpr int kStyle = style::allow_long | style::long_allow_next | style::long_allow_adjacent |
                       style::allow_short | style::allow_dash_for_short | style::short_allow_next;

bool is_help_word(std::string_view word) {
  return word == "--help" || word == "-h";
}

bool looks_like_option(std::string_view word) {
  return word.size() > 1 && word.front() == '-';
}

template <class T>
const po::value_semantic* semantic(po::typed_value<T>* value, const OptionSpec& option) {
  if (!option.value_name.empty()) value->value_name(option.value_name);
  if (option.required) value->required();
  return value;
}

po::options_description describe(const CommandSpec& spec) {
  po::options_description description;
  auto add = description.add_options();
  for (const auto& option : spec.options) {
    // A switch has no default value: absent, it is not in the variables_map at all.
    const auto* value =
        option.value_name.empty() ? semantic(po::value<bool>()->zero_tokens(), option)
        : option.repeatable       ? semantic(po::value<std::vector<std::string>>(), option)
                                  : semantic(po::value<std::string>(), option);
    add(option.name.c_str(), value, option.help.c_str());
  }
  return description;
}

// Tried on each word before Program_options' own long-option parser, for what that gets wrong
// here: it refuses the empty value of `--name=`, and it means to refuse an option word as the
// value of the option before it but looks that word up with its dashes, so never does.
std::vector<po::option> parse_long_option_edges(const po::options_description& description,
                                                std::vector<std::string>& words) {
  const std::string word = words.front();
  if (!word.starts_with("--") || word == "--") return {};
  const auto equals = word.find('=');
  const std::string name = word.substr(2, equals == std::string::npos ? equals : equals - 2);
  if (name.empty()) throw po::unknown_option(word);  // else `--=x` would pass as a positional
  if (equals == word.size() - 1) {
    po::option option(name, {""});
    option.original_tokens.push_back(word);
    words.erase(words.begin());
    return {option};
  }
  const auto* described = description.find_nothrow(name, false);
  if (equals == std::string::npos && described != nullptr &&
      described->semantic()->min_tokens() > 0 && words.size() > 1 && looks_like_option(words[1])) {
    throw po::invalid_command_line_syntax(po::invalid_syntax::missing_parameter, name, word,
                                          style::allow_long);
  }
  return {};
}

// Throws po::error for a refused command line.
ParsedArguments read_arguments(const CommandSpec& spec, const po::options_description& description,
                               const std::vector<std::string>& args) {
  const auto parsed = po::command_line_parser(args)
                          .options(description)
                          .style(kStyle)
                          .extra_style_parser([&](std::vector<std::string>& words) {
                            return parse_long_option_edges(description, words);
                          })
                          .run();
  po::variables_map values;
  po::store(parsed, values);
  po::notify(values);

  ParsedArguments arguments;
  for (const auto& option : spec.options) {
    if (!values.contains(option.name)) continue;
    const po::variable_value& value = values[option.name];
    if (option.value_name.empty()) {
      arguments.add_option(option.name, "");
    } else if (option.repeatable) {
      for (const auto& each : value.as<std::vector<std::string>>()) {
        arguments.add_option(option.name, each);
      }
    } else {
      arguments.add_option(option.name, value.as<std::string>());
    }
  }
  for (auto& word : po::collect_unrecognized(parsed.options, po::include_positional)) {
    arguments.add_positional(std::move(word));
  }
  return arguments;
}

// Our sentences rather than Program_options' own, so that each names the flag the same way.
UsageError refusal(const po::error& error, const po::options_description& description) {
  if (const auto* unknown = dynamic_cast<const po::unknown_option*>(&error)) {
    std::string word = unknown->get_option_name();  // the word as typed: `--bogus=1`, `-xyz`
    if (word.starts_with("--")) word.erase(std::min(word.find('='), word.size()));
    return {"unknown option " + word};
  }
  if (const auto* syntax = dynamic_cast<const po::invalid_command_line_syntax*>(&error)) {
    const std::string flag = syntax->get_option_name();  // "--name"
    if (syntax->kind() == po::invalid_syntax::extra_parameter) return {flag + " takes no value"};
    const auto* described =
        flag.starts_with("--") ? description.find_nothrow(flag.substr(2), false) : nullptr;
    if (syntax->kind() == po::invalid_syntax::missing_parameter && described != nullptr) {
      return {flag + " needs a value (" + described->semantic()->name() + ")"};
    }
  }
  if (const auto* repeated = dynamic_cast<const po::multiple_occurrences*>(&error)) {
    return {repeated->get_option_name() + " is given more than once"};
  }
  if (const auto* missing = dynamic_cast<const po::required_option*>(&error)) {
    return {"missing required option " + missing->get_option_name()};
  }
  return {error.what()};
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
  // Help is honoured even next to mistakes, so that a confused operator can always get it
  // (Program_options would stop at the first mistake).
  for (const auto& word : args) {
    if (word == "--") break;
    if (is_help_word(word)) return HelpRequested{};
  }

  const auto description = describe(spec);
  ParsedArguments parsed;
  try {
    parsed = read_arguments(spec, description, args);
  } catch (const po::error& error) {
    return refusal(error, description);
  }
  // Program_options' positional descriptions can only say "too many positional options"; the
  // operator is told which word is extra, or which argument is missing.
  if (parsed.positionals().size() < spec.positionals.size()) {
    return UsageError{"missing argument " + spec.positionals[parsed.positionals().size()].name};
  }
  if (parsed.positionals().size() > spec.positionals.size()) {
    return UsageError{"unexpected argument " + parsed.positionals()[spec.positionals.size()]};
  }
  return parsed;
}

// Hand-written: Program_options' formatter pads the option column to at least 23 characters and
// has no usage line and no section for positional arguments.
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
