// API keys as records: what the database keeps of a key (never the key itself) and the scopes
// a key grants. Key material (generation, hashing) lives in auth/api_key.hpp.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/ids.hpp"
#include "domain/timestamp.hpp"

namespace leadline::domain {

enum class Scope : unsigned { kRead = 1, kWrite = 2 };

// A set of scopes, stored as a bit set.
struct ScopeSet {
  unsigned bits = 0;

  bool has(Scope s) const { return (bits & static_cast<unsigned>(s)) != 0; }
  ScopeSet& add(Scope s) {
    bits |= static_cast<unsigned>(s);
    return *this;
  }
  friend bool operator==(const ScopeSet&, const ScopeSet&) = default;
};

// How scopes are named wherever people and programs write them: "read", "write".
inline std::optional<Scope> parse_scope(std::string_view name) {
  if (name == "read") return Scope::kRead;
  if (name == "write") return Scope::kWrite;
  return std::nullopt;
}

// Canonical order: read, then write.
inline std::vector<std::string> scope_names(ScopeSet scopes) {
  std::vector<std::string> names;
  if (scopes.has(Scope::kRead)) names.emplace_back("read");
  if (scopes.has(Scope::kWrite)) names.emplace_back("write");
  return names;
}

struct ApiKeyRecord {
  ApiKeyId id;
  WorkspaceId workspace_id;
  std::string name;
  std::string prefix;  // "fc_live_" + 4 characters, for display
  ScopeSet scopes;
  std::vector<std::string> allowed_ips;  // entries as given by the operator
  Timestamp created_at;
  std::optional<Timestamp> revoked_at;
};

struct NewApiKey {
  WorkspaceId workspace_id;
  std::string name;
  std::string prefix;
  std::string key_hash;  // lowercase hex SHA-256 of the whole key
  ScopeSet scopes;
  std::vector<std::string> allowed_ips;
};

}  // namespace leadline::domain
