// Renders every `serve` setting in the order of the key table.
#include "cli/effective_config.hpp"

#include <algorithm>
#include <thread>

#include "cli/secret_mask.hpp"

namespace leadline::cli {

namespace {

std::string toml_string(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + '"';
}

std::string toml_list(std::string_view joined) {
  std::string out = "[";
  std::size_t start = 0;
  while (start <= joined.size()) {
    const auto comma = std::min(joined.find(',', start), joined.size());
    std::string entry(joined.substr(start, comma - start));
    entry.erase(0, entry.find_first_not_of(' '));
    entry.erase(entry.find_last_not_of(' ') + 1);
    start = comma + 1;
    if (entry.empty()) continue;
    if (out.size() > 1) out += ", ";
    out += toml_string(entry);
  }
  return out + "]";
}

std::string toml_value(const ServeKey& key, const std::string& value) {
  switch (key.kind) {
    case KeyKind::kNumber:
    case KeyKind::kSwitch:
      return value;
    case KeyKind::kList:
      return toml_list(value);
    case KeyKind::kText:
      break;
  }
  return toml_string(key.secret ? mask_secrets(value) : value);
}

}  // namespace

std::string effective_config_toml(const SettingSources& sources) {
  std::string out = "# leadline serve: effective configuration (flag > env > file > default)\n";
  for (const ServeKey& key : serve_keys()) {
    const auto setting = sources.find(key.name);
    std::string value;
    std::string origin;
    if (setting) {
      value = setting->value;
      origin = std::string(origin_name(setting->origin));
      if (setting->origin == Origin::kEnv) origin += " (" + setting->source + ")";
    } else if (key.name == "threads") {
      value = std::to_string(std::max(1u, std::thread::hardware_concurrency()));
      origin = "default (one per core)";
    } else if (!key.fallback.empty() || key.kind == KeyKind::kList) {
      value = std::string(key.fallback);
      origin = "default";
    } else {
      out += "# " + std::string(key.name) + " is not set  # default\n";
      continue;
    }
    out += std::string(key.name) + " = " + toml_value(key, value) + "  # " + origin + "\n";
  }
  return out;
}

}  // namespace leadline::cli
