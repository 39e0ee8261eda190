// `leadline serve --print-config`: the configuration that would be served, as TOML one key a
// line, each with a comment naming where its value came from; secrets masked.
#pragma once

#include <string>

#include "cli/setting_sources.hpp"

namespace leadline::cli {

// Call after the settings were validated: values are shown as given, not re-checked.
std::string effective_config_toml(const SettingSources& sources);

}  // namespace leadline::cli
