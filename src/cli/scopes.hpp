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

using domain::scope_names;

}  // namespace leadline::cli
