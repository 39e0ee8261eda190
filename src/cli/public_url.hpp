// `--public-url URL`: where people reach the dashboard, for the links the operator command prints
// (a user's setup link). The server may listen on another address behind a proxy, so the link's
// base is said, not guessed.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "cli/command.hpp"

namespace leadline::cli {

inline constexpr const char* kDefaultPublicUrl = "http://127.0.0.1:8080";

OptionSpec public_url_option();

// http:// or https://, a host (name, IPv4 or [IPv6]), an optional port, and at most a "/" after
// it, which is dropped: the URL as given without that slash, or nothing. Paths are refused
// because the dashboard is always served at /dashboard of its origin.
std::optional<std::string> parse_public_url(std::string_view text);

// --public-url, else $LEADLINE_PUBLIC_URL, else kDefaultPublicUrl; a bad value is a usage
// failure naming where it came from.
Result<std::string> resolve_public_url(const ParsedArguments& args);

}  // namespace leadline::cli
