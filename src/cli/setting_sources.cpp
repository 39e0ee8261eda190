// Flag > environment > file > default, for every `serve` setting.
#include "cli/setting_sources.hpp"

#include <cstdlib>

namespace leadline::cli {

namespace {

// An empty variable is treated as unset, the usual shell convention.
const char* env_value(const char* name) {
  if (name == nullptr) return nullptr;
  const char* text = std::getenv(name);
  return text == nullptr || *text == '\0' ? nullptr : text;
}

}  // namespace

std::string_view origin_name(Origin origin) {
  switch (origin) {
    case Origin::kFlag:
      return "flag";
    case Origin::kEnv:
      return "env";
    case Origin::kFile:
      return "file";
    case Origin::kDefault:
      break;
  }
  return "default";
}

Failure Setting::must_be(std::string_view expected, bool echo) const {
  std::string message = source + (origin == Origin::kFile ? ": must be " : " must be ");
  message += expected;
  if (echo) message += ", got \"" + value + "\"";
  return usage_failure(std::move(message));
}

SettingSources::SettingSources(const ParsedArguments& args, std::optional<ConfigFile> file)
    : args_(args), file_(std::move(file)) {}

std::optional<Setting> SettingSources::find(std::string_view name) const {
  const ServeKey* key = find_serve_key(name);
  if (key == nullptr) return std::nullopt;
  const std::string flag = "--" + std::string(name);
  if (key->kind == KeyKind::kSwitch) {
    if (args_.has(name)) return Setting{"true", Origin::kFlag, flag};
  } else if (key->kind == KeyKind::kList) {
    std::string joined;
    for (const auto& value : args_.values(name)) {
      if (!joined.empty()) joined += ',';
      joined += value;
    }
    if (args_.has(name)) return Setting{joined, Origin::kFlag, flag};
  } else if (auto value = args_.value(name)) {
    return Setting{*value, Origin::kFlag, flag};
  }
  if (const char* env = env_value(key->env)) return Setting{env, Origin::kEnv, key->env};
  if (file_) {
    if (auto it = file_->values.find(name); it != file_->values.end()) {
      return Setting{it->second, Origin::kFile,
                     "config " + file_->path + ": key \"" + std::string(name) + "\""};
    }
  }
  return std::nullopt;
}

std::optional<Setting> flag_or_env(const ParsedArguments& args, std::string_view name,
                                   const char* env) {
  if (auto value = args.value(name)) {
    return Setting{*value, Origin::kFlag, "--" + std::string(name)};
  }
  if (const char* text = env_value(env)) return Setting{text, Origin::kEnv, env};
  return std::nullopt;
}

Result<SettingSources> setting_sources(const ParsedArguments& args) {
  std::optional<std::string> path = args.value("config");
  if (!path) {
    if (const char* env = env_value("LEADLINE_CONFIG")) path = env;
  }
  if (!path) return SettingSources(args, std::nullopt);
  if (path->empty()) return usage_failure("--config must name a file");
  auto file = read_config_file(*path);
  if (auto* f = std::get_if<Failure>(&file)) return *f;
  return SettingSources(args, std::get<ConfigFile>(std::move(file)));
}

}  // namespace leadline::cli
