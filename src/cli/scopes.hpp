// API key scopes as the operator writes them ("read,write") and as keys carry them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cli/command.hpp"
#include "domain/api_key.hpp"

namespace leadline::cli {

// Any non-empty subset of read,write; duplicates collapse; an unknown scope is named.
Result<domain::ScopeSet> parse_scopes(std::string_view text);

// Canonical order: read, then write.
std::vector<std::string> scope_names(domain::ScopeSet scopes);

}  // namespace leadline::cli
