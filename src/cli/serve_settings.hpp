// The settings of `leadline serve`, each from its flag, else its LEADLINE_* environment
// variable, else the --config file, else its default; validated before anything starts.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "cli/setting_sources.hpp"
#include "runtime/runtime_config.hpp"
#include "store/database.hpp"

namespace leadline::cli {

using runtime::ListenAddress;

struct ServeSettings {
  runtime::RuntimeConfig runtime;
  std::string db_url;
  store::OpenOptions db;
  bool demo = false;
};

std::vector<OptionSpec> serve_option_specs();

// Usage failures name the flag, environment variable or config file key that held the bad
// value.
Result<ServeSettings> serve_settings(const SettingSources& sources);

// "HOST:PORT" or "[IPV6]:PORT".
std::optional<ListenAddress> parse_listen_address(std::string_view text);

}  // namespace leadline::cli
