// TOML via toml++ (Debian's libtomlplusplus-dev); only this file includes it, so its
// compile cost and exceptions stay here.
#include "cli/config_file.hpp"

#include <toml++/toml.h>
#include <sstream>

#include "cli/serve_keys.hpp"

namespace leadline::cli {

namespace {

std::string blame(const std::string& path, std::string_view key) {
  return "config " + path + ": key \"" + std::string(key) + "\": ";
}

// The flag-form text of `node` for a key of `kind`, or why the type is wrong.
std::variant<std::string, std::string> flag_text(const toml::node& node, KeyKind kind) {
  using Text = std::variant<std::string, std::string>;
  switch (kind) {
    case KeyKind::kText:
      if (const auto* s = node.as_string()) return Text(std::in_place_index<0>, s->get());
      return Text(std::in_place_index<1>, "must be a string");
    case KeyKind::kNumber:
      if (const auto* i = node.as_integer())
        return Text(std::in_place_index<0>, std::to_string(i->get()));
      return Text(std::in_place_index<1>, "must be a whole number");
    case KeyKind::kSwitch:
      if (const auto* b = node.as_boolean())
        return Text(std::in_place_index<0>, b->get() ? "true" : "false");
      return Text(std::in_place_index<1>, "must be true or false");
    case KeyKind::kList: {
      // A single string reads as naturally as a one-element array.
      if (const auto* s = node.as_string()) return Text(std::in_place_index<0>, s->get());
      const auto* array = node.as_array();
      if (array == nullptr) return Text(std::in_place_index<1>, "must be an array of strings");
      std::string joined;
      for (const auto& element : *array) {
        const auto* s = element.as_string();
        if (s == nullptr) return Text(std::in_place_index<1>, "must be an array of strings");
        if (!joined.empty()) joined += ',';
        joined += s->get();
      }
      return Text(std::in_place_index<0>, joined);
    }
  }
  return Text(std::in_place_index<1>, "has an unsupported type");
}

}  // namespace

Result<ConfigFile> read_config_file(const std::string& path) {
  toml::table table;
  try {
    table = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    std::ostringstream message;
    message << "config " << path << ": ";
    if (e.source().begin.line != 0) message << "line " << e.source().begin.line << ": ";
    message << e.description();
    return usage_failure(message.str());
  }

  ConfigFile file{.path = path, .values = {}};
  for (const auto& [key, node] : table) {
    const ServeKey* spec = find_serve_key(key.str());
    if (spec == nullptr) return usage_failure(blame(path, key.str()) + "unknown key");
    auto text = flag_text(node, spec->kind);
    if (text.index() == 1) return usage_failure(blame(path, key.str()) + std::get<1>(text));
    file.values.emplace(std::string(key.str()), std::get<0>(std::move(text)));
  }
  return file;
}

}  // namespace leadline::cli
