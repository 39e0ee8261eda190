// Where each `serve` setting comes from: its flag, else its LEADLINE_* variable, else the
// --config file (LEADLINE_CONFIG), else its default. One lookup for every setting, so the
// precedence cannot differ between them. The other commands' settings (such as --db) use the
// same lookup without the file.
#pragma once

#include <optional>
#include <string>

#include "cli/command.hpp"
#include "cli/config_file.hpp"
#include "cli/serve_keys.hpp"

namespace leadline::cli {

enum class Origin { kFlag, kEnv, kFile, kDefault };

std::string_view origin_name(Origin origin);  // "flag", "env", "file", "default"

struct Setting {
  std::string value;  // in flag form
  Origin origin = Origin::kDefault;
  std::string source;  // "--listen", "LEADLINE_LISTEN" or "config FILE: key \"listen\""

  // The usage failure for a value that is not `expected` (the value is echoed unless hidden).
  Failure must_be(std::string_view expected, bool echo = true) const;
};

class SettingSources {
 public:
  SettingSources(const ParsedArguments& args, std::optional<ConfigFile> file);

  // The value that counts, nothing when the setting is given nowhere (its default applies).
  // A repeated flag gives its values joined with ",".
  std::optional<Setting> find(std::string_view name) const;

  const ParsedArguments& args() const { return args_; }

 private:
  const ParsedArguments& args_;
  std::optional<ConfigFile> file_;
};

// Reads --config FILE (else $LEADLINE_CONFIG) when one is named.
Result<SettingSources> setting_sources(const ParsedArguments& args);

// The same precedence for the commands without a config file (all but serve): --`name`, else
// the variable `env`, else nothing. A flag's empty value is returned as given (for its caller to
// refuse); an empty variable counts as unset.
std::optional<Setting> flag_or_env(const ParsedArguments& args, std::string_view name,
                                   const char* env);

}  // namespace leadline::cli
