// SQL for API keys: creation, lookup by hash on every request, listing and revocation.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "store/postgres/pg_connection.hpp"
#include "store/store.hpp"

namespace leadline::store::postgres {

ApiKeyRecord insert_api_key(Connection& conn, const NewApiKey& key, domain::Timestamp now);

// Revoked keys included; the caller decides what revocation means.
std::optional<ApiKeyRecord> select_key_by_hash(Connection& conn, const std::string& key_hash);

// Oldest first.
std::vector<ApiKeyRecord> select_keys_of_workspace(Connection& conn, const domain::WorkspaceId& ws);

// The first revocation time is kept.
std::variant<ApiKeyRecord, NotFound> revoke_key(Connection& conn, const domain::ApiKeyId& id,
                                                domain::Timestamp now);

}  // namespace leadline::store::postgres
