// The request's identity: the key behind the Authorization header and whether the client's
// address may use it. Every lookup reads the store, so a revocation by any process counts on
// the very next request.
#pragma once

#include <string_view>
#include <variant>
#include <vector>

#include "auth/ip_rule.hpp"
#include "store/store.hpp"

namespace leadline::auth {

struct AuthenticatedKey {
  store::ApiKeyRecord key;
};

enum class AuthFailure {
  kMissingOrMalformed,  // 401: no header, other scheme, no token
  kUnknownOrRevoked,    // 401: not shaped like a key, unknown, or revoked
  kIpNotAllowed,        // 403
};

class Authenticator {
 public:
  Authenticator(store::Store& store, std::vector<IpRange> trusted_proxies);

  // authorization: the Authorization header value ("" when absent).
  std::variant<AuthenticatedKey, AuthFailure> authenticate(std::string_view authorization,
                                                           std::string_view peer_ip,
                                                           std::string_view x_forwarded_for);

 private:
  store::Store& store_;
  std::vector<IpRange> trusted_proxies_;
};

}  // namespace leadline::auth
