// The request's identity: the key behind the Authorization header and whether the client's
// address may use it. A key found once is remembered, and the caller confirms that it is still
// usable with the request's first database round trip (docs/design.md, "Keys"), so a
// revocation by any process counts on the very next request.
#pragma once

#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

#include "auth/ip_rule.hpp"
#include "auth/storage_ports.hpp"

namespace leadline::auth {

struct AuthenticatedKey {
  domain::ApiKeyRecord key;
  // Remembered rather than read now: the caller must confirm that the key is still usable (not
  // revoked) before its answer counts, and call forget() when it is not.
  bool remembered = false;
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

  // The key behind `authorization` turned out unusable: look it up again next time.
  void forget(std::string_view authorization);

 private:
  // Usable keys by hash; emptied when full (a key costs one lookup to be remembered again).
  static constexpr std::size_t kRememberedKeys = 10'000;

  KeyLookup lookup_;
  std::vector<IpRange> trusted_proxies_;
  std::mutex mutex_;
  std::unordered_map<std::string, domain::ApiKeyRecord> remembered_;
};

}  // namespace leadline::auth
