// What auth needs from storage, and nothing more: looking a key up by its hash, and writing
// usage counts. The server wires them to the store; tests give plain functions.
#pragma once

#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "domain/api_key.hpp"
#include "domain/usage.hpp"

namespace leadline::auth {

// The key with this SHA-256 (lowercase hex), revoked ones included; nothing when unknown.
// Throws when the database cannot answer.
using KeyLookup = std::function<std::optional<domain::ApiKeyRecord>(std::string_view key_hash)>;

// Adds the counts to what is stored. Throws when the database cannot take them.
using UsageSink = std::function<void(const std::vector<domain::UsageDelta>& deltas)>;

}  // namespace leadline::auth
