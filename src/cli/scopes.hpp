// API key scopes as the operator writes them ("read,write") and as the store keeps them (bits).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cli/command.hpp"

namespace leadline::cli {

// Any non-empty subset of read,write; duplicates collapse; an unknown scope is named.
Result<unsigned> parse_scopes(std::string_view text);

// Canonical order: read, then write.
std::vector<std::string> scope_names(unsigned scopes);

}  // namespace leadline::cli
