// Parsing and naming of API key scopes for the keys commands.
#include "cli/scopes.hpp"

namespace leadline::cli {

namespace {

// "read, write" is as clear as "read,write"; accept both.
std::string_view trim_ascii_space(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

Result<domain::ScopeSet> parse_scopes(std::string_view text) {
  domain::ScopeSet scopes;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string_view word = trim_ascii_space(text.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (const auto scope = domain::parse_scope(word)) {
      scopes.add(*scope);
    } else if (word.empty()) {
      return usage_failure("--scopes must be a comma-separated list of read, write");
    } else {
      return usage_failure("--scopes: unknown scope \"" + std::string(word) +
                           "\" (allowed: read, write)");
    }
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return scopes;
}

}  // namespace leadline::cli
