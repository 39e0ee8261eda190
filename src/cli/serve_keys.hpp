// The settings of `leadline serve` as one table: each one's flag (also its config file key),
// environment variable, kind of value and default, shared by the flag, environment and file
// readers and by --print-config.
#pragma once

#include <span>
#include <string_view>

namespace leadline::cli {

enum class KeyKind {
  kText,    // a string
  kNumber,  // a whole number
  kSwitch,  // a flag without value; true/false in the file
  kList,    // comma-separated on the command line and in the environment, an array in the file
};

struct ServeKey {
  std::string_view name;      // "listen": the flag --listen and the file key listen
  const char* env = nullptr;  // "LEADLINE_LISTEN"; nullptr when there is none
  KeyKind kind = KeyKind::kText;
  std::string_view fallback{};  // the default in flag form; empty: none
  bool secret = false;          // a URL that may carry a password: never echoed unmasked
};

std::span<const ServeKey> serve_keys();

// nullptr for names that are not settings of `serve`.
const ServeKey* find_serve_key(std::string_view name);

}  // namespace leadline::cli
