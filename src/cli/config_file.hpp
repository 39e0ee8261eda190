// `leadline serve --config FILE`: a TOML file whose keys are the flag names, read once at start
// into the same text form a flag would have, so every setting is validated by one parser.
#pragma once

#include <map>
#include <string>

#include "cli/command.hpp"

namespace leadline::cli {

struct ConfigFile {
  std::string path;
  // Key -> value as a flag would give it: lists joined with ",", switches "true"/"false".
  std::map<std::string, std::string, std::less<>> values;
};

// A file that cannot be read or parsed, an unknown key or a value of the wrong type is a
// usage failure "config FILE: key "x": ..." (or "config FILE: line N: ..." for syntax).
Result<ConfigFile> read_config_file(const std::string& path);

}  // namespace leadline::cli
