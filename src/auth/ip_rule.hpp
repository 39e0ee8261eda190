// IP addresses and CIDR ranges for key whitelists and --trust-proxy, IPv4 and IPv6, with
// IPv4-mapped IPv6 addresses (::ffff:1.2.3.4) treated as their IPv4 address.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace leadline::auth {

struct IpAddress {
  bool v4 = true;
  std::array<std::uint8_t, 16> bytes{};  // v4 uses the first 4

  friend bool operator==(const IpAddress&, const IpAddress&) = default;
};

// Parses a textual IPv4 or IPv6 address (no brackets, no zone); IPv4-mapped IPv6 becomes v4.
std::optional<IpAddress> parse_ip(std::string_view text);

struct IpRange {
  IpAddress base;  // host bits zeroed
  unsigned prefix_length = 32;

  bool contains(const IpAddress& ip) const;
};

// "1.2.3.4", "10.0.0.0/8", "2001:db8::/32", "::ffff:10.0.0.0/104" (mapped ranges become v4).
// Nothing when malformed or the prefix is out of range.
std::optional<IpRange> parse_ip_range(std::string_view text);

// Parses each entry; nothing when any entry is malformed.
std::optional<std::vector<IpRange>> parse_ip_ranges(const std::vector<std::string_view>& entries);

bool any_contains(const std::vector<IpRange>& ranges, const IpAddress& ip);

// The client address of a request: the direct peer unless the peer is inside `trusted` and
// X-Forwarded-For is present; then, walking the header from the right, the first entry not
// inside `trusted`; the left-most when all are trusted; the peer when an entry reached is not a
// valid address.
IpAddress resolve_client_ip(const IpAddress& peer, std::string_view x_forwarded_for,
                            const std::vector<IpRange>& trusted);

}  // namespace leadline::auth
