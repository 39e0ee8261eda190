// Authentication in the contract's order (docs/api.md): key (401), then the key's IP whitelist
// (403).
#include "auth/authenticator.hpp"

#include "auth/api_key.hpp"

namespace leadline::auth {

namespace {

// Entries are validated when the key is created; one that still does not parse matches
// nothing, so a damaged whitelist fails closed.
bool whitelist_allows(const std::vector<std::string>& allowed_ips, const IpAddress& client) {
  for (const auto& entry : allowed_ips) {
    const auto range = parse_ip_range(entry);
    if (range && range->contains(client)) return true;
  }
  return false;
}

}  // namespace

Authenticator::Authenticator(KeyLookup lookup, std::vector<IpRange> trusted_proxies)
    : lookup_(std::move(lookup)), trusted_proxies_(std::move(trusted_proxies)) {}

std::variant<AuthenticatedKey, AuthFailure> Authenticator::authenticate(
    std::string_view authorization, std::string_view peer_ip, std::string_view x_forwarded_for) {
  const auto token = parse_bearer_token(authorization);
  if (!token) return AuthFailure::kMissingOrMalformed;
  // A token of the wrong shape cannot be a key: answer without touching the database.
  if (!looks_like_api_key(*token)) return AuthFailure::kUnknownOrRevoked;

  std::string hash = hash_api_key(*token);
  std::optional<domain::ApiKeyRecord> record;
  bool remembered = false;
  {
    const std::lock_guard lock(mutex_);
    if (auto found = remembered_.find(hash); found != remembered_.end()) {
      record = found->second;
      remembered = true;
    }
  }
  if (!record) {
    // Unknown and revoked keys are never remembered: they are looked up every time.
    record = lookup_(hash);
    if (!record || record->revoked_at) return AuthFailure::kUnknownOrRevoked;
    const std::lock_guard lock(mutex_);
    if (remembered_.size() >= kRememberedKeys) remembered_.clear();
    remembered_.emplace(std::move(hash), *record);
  }

  if (!record->allowed_ips.empty()) {
    const auto peer = parse_ip(peer_ip);
    if (!peer) return AuthFailure::kIpNotAllowed;
    const IpAddress client = resolve_client_ip(*peer, x_forwarded_for, trusted_proxies_);
    if (!whitelist_allows(record->allowed_ips, client)) return AuthFailure::kIpNotAllowed;
  }
  return AuthenticatedKey{std::move(*record), remembered};
}

void Authenticator::forget(std::string_view authorization) {
  const auto token = parse_bearer_token(authorization);
  if (!token) return;
  const std::string hash = hash_api_key(*token);
  const std::lock_guard lock(mutex_);
  remembered_.erase(hash);
}

}  // namespace leadline::auth
