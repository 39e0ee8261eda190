// The addresses no webhook attempt may connect to (the spec's SSRF list), and the operator's
// exemptions from it (--webhook-allow-private).
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "auth/ip_rule.hpp"

namespace leadline::webhooks {

class AddressPolicy {
 public:
  AddressPolicy() = default;                                   // blocks every listed range
  explicit AddressPolicy(std::vector<auth::IpRange> allowed);  // --webhook-allow-private

  // The blocked range containing `ip` as the spec writes it ("127.0.0.0/8", "::1/128",
  // "64:ff9b::/96", ...), or nullopt when an attempt may connect. Ranges in `allowed` are exempt.
  // An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is judged as its IPv4 address, whichever form
  // it arrives in.
  std::optional<std::string_view> blocked_range(const auth::IpAddress& ip) const;

 private:
  std::vector<auth::IpRange> allowed_;
};

}  // namespace leadline::webhooks
