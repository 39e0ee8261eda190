// API keys as the database keeps them: the SHA-256 of each key, never the key itself.
#pragma once

#include <optional>
#include <string_view>
#include <variant>
#include <vector>

#include "domain/api_key.hpp"
#include "store/carried_check.hpp"
#include "store/operation_runner.hpp"
#include "store/outcomes.hpp"

namespace leadline::store {

class KeyStore {
 public:
  explicit KeyStore(OperationRunner& runner) : runner_(runner) {}

  domain::ApiKeyRecord create(const domain::NewApiKey& key);
  // Revoked keys too (revoked_at set): the caller tells them apart.
  std::optional<domain::ApiKeyRecord> find_by_hash(std::string_view key_hash);
  std::vector<domain::ApiKeyRecord> list(const domain::WorkspaceId& ws);
  // That the key is still usable (known and not revoked), checked by the next operation on this
  // thread in its first round trip.
  CarriedCheck carry_usable_check(const domain::ApiKeyId& id);
  // The same check on its own, now.
  bool usable(const domain::ApiKeyId& id);
  // Sets revoked_at once; a second revoke keeps the first time.
  std::variant<domain::ApiKeyRecord, NotFound> revoke(const domain::ApiKeyId& id);
  // The same, only when the key belongs to `ws`.
  std::variant<domain::ApiKeyRecord, NotFound> revoke(const domain::WorkspaceId& ws,
                                                      const domain::ApiKeyId& id);

 private:
  std::variant<domain::ApiKeyRecord, NotFound> revoke_where(
      const domain::ApiKeyId& id, const std::optional<domain::WorkspaceId>& ws);

  OperationRunner& runner_;
};

}  // namespace leadline::store
