// The request's identity: the key behind the Authorization header and whether the client's
// address may use it. Every lookup reads the database, so a revocation by any process counts on
// the very next request.
#pragma once

#include <string_view>
#include <variant>
#include <vector>

#include "auth/ip_rule.hpp"
#include "auth/storage_ports.hpp"

namespace leadline::auth {

struct AuthenticatedKey {
  domain::ApiKeyRecord key;
};

enum class AuthFailure {
  kMissingOrMalformed,  // 401: no header, other scheme, no token
  kUnknownOrRevoked,    // 401: not shaped like a key, unknown, or revoked
  kIpNotAllowed,        // 403
};

class Authenticator {
 public:
  Authenticator(KeyLookup lookup, std::vector<IpRange> trusted_proxies);

  // authorization: the Authorization header value ("" when absent).
  std::variant<AuthenticatedKey, AuthFailure> authenticate(std::string_view authorization,
                                                           std::string_view peer_ip,
                                                           std::string_view x_forwarded_for);

 private:
  KeyLookup lookup_;
  std::vector<IpRange> trusted_proxies_;
};

}  // namespace leadline::auth
