// Parsing and matching of IP addresses and CIDR ranges, and the X-Forwarded-For walk.
#include "auth/ip_rule.hpp"

#include <arpa/inet.h>

#include <string>

namespace leadline::auth {

namespace {

constexpr std::array<std::uint8_t, 12> kMappedPrefix = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// Decimal 0..max without sign or leading zeros ("0" itself is fine), so "010" cannot be read
// as octal 8 by one tool and decimal 10 by another.
std::optional<unsigned> parse_decimal(std::string_view text, unsigned max) {
  if (text.empty() || text.size() > 3) return std::nullopt;
  if (text.size() > 1 && text.front() == '0') return std::nullopt;
  unsigned value = 0;
  for (const char c : text) {
    if (!is_digit(c)) return std::nullopt;
    value = value * 10 + static_cast<unsigned>(c - '0');
  }
  if (value > max) return std::nullopt;
  return value;
}

// Strict dotted quad: exactly four decimal octets; leading zeros are rejected (see above).
std::optional<IpAddress> parse_ipv4(std::string_view text) {
  IpAddress ip;
  ip.v4 = true;
  for (std::size_t octet = 0; octet < 4; ++octet) {
    const std::size_t dot = text.find('.');
    const bool last = octet == 3;
    if (last != (dot == std::string_view::npos)) return std::nullopt;
    const auto value = parse_decimal(text.substr(0, dot), 255);
    if (!value) return std::nullopt;
    ip.bytes[octet] = static_cast<std::uint8_t>(*value);
    text = last ? std::string_view{} : text.substr(dot + 1);
  }
  return ip;
}

std::optional<IpAddress> parse_ipv6(std::string_view text) {
  // inet_pton needs a terminated string; the longest IPv6 text form is 45 characters. A NUL
  // inside would end the copy early, so "::\0junk" would read as "::".
  if (text.size() > 45 || text.find('\0') != std::string_view::npos) return std::nullopt;
  const std::string copy(text);
  IpAddress ip;
  ip.v4 = false;
  if (inet_pton(AF_INET6, copy.c_str(), ip.bytes.data()) != 1) return std::nullopt;
  return ip;
}

bool is_v4_mapped(const IpAddress& ip) {
  if (ip.v4) return false;
  for (std::size_t i = 0; i < kMappedPrefix.size(); ++i) {
    if (ip.bytes[i] != kMappedPrefix[i]) return false;
  }
  return true;
}

IpAddress unmap(const IpAddress& mapped) {
  IpAddress ip;
  ip.v4 = true;
  for (std::size_t i = 0; i < 4; ++i) ip.bytes[i] = mapped.bytes[12 + i];
  return ip;
}

IpAddress as_mapped_v6(const IpAddress& v4) {
  IpAddress ip;
  ip.v4 = false;
  for (std::size_t i = 0; i < kMappedPrefix.size(); ++i) ip.bytes[i] = kMappedPrefix[i];
  for (std::size_t i = 0; i < 4; ++i) ip.bytes[12 + i] = v4.bytes[i];
  return ip;
}

void zero_host_bits(IpAddress& ip, unsigned prefix_length) {
  for (std::size_t i = 0; i < ip.bytes.size(); ++i) {
    const unsigned first_bit = static_cast<unsigned>(i) * 8;
    if (first_bit >= prefix_length) {
      ip.bytes[i] = 0;
    } else if (first_bit + 8 > prefix_length) {
      ip.bytes[i] &= static_cast<std::uint8_t>(0xFF << (first_bit + 8 - prefix_length));
    }
  }
}

bool same_prefix(const IpAddress& a, const IpAddress& b, unsigned prefix_length) {
  const unsigned whole = prefix_length / 8;
  for (unsigned i = 0; i < whole; ++i) {
    if (a.bytes[i] != b.bytes[i]) return false;
  }
  const unsigned rest = prefix_length % 8;
  if (rest == 0) return true;
  const auto mask = static_cast<std::uint8_t>(0xFF << (8 - rest));
  return (a.bytes[whole] & mask) == (b.bytes[whole] & mask);
}

std::string_view trim_ows(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::optional<IpAddress> parse_ip(std::string_view text) {
  if (text.find(':') == std::string_view::npos) return parse_ipv4(text);
  auto ip = parse_ipv6(text);
  if (ip && is_v4_mapped(*ip)) return unmap(*ip);
  return ip;
}

bool IpRange::contains(const IpAddress& ip) const {
  if (base.v4 == ip.v4) return same_prefix(base, ip, prefix_length);
  // A v6 range covering ::ffff:0:0/96 (for example ::/0) also covers the IPv4 addresses that
  // arrive mapped into it; a v4 range never covers a (non-mapped) v6 address.
  if (!base.v4) return same_prefix(base, as_mapped_v6(ip), prefix_length);
  return false;
}

std::optional<IpRange> parse_ip_range(std::string_view text) {
  const std::size_t slash = text.find('/');
  const std::string_view address_text = text.substr(0, slash);
  const auto address = parse_ip(address_text);
  if (!address) return std::nullopt;
  const bool written_as_v6 = address_text.find(':') != std::string_view::npos;
  const unsigned max_prefix = written_as_v6 ? 128 : 32;
  unsigned prefix = max_prefix;
  if (slash != std::string_view::npos) {
    const auto parsed = parse_decimal(text.substr(slash + 1), max_prefix);
    if (!parsed) return std::nullopt;
    prefix = *parsed;
  }
  IpRange range;
  if (written_as_v6 && address->v4) {
    // ::ffff:a.b.c.d/N: from /96 on it is an IPv4 range; shorter prefixes reach beyond the
    // mapped block and stay IPv6.
    if (prefix >= 96) {
      range.base = *address;
      range.prefix_length = prefix - 96;
    } else {
      range.base = as_mapped_v6(*address);
      range.prefix_length = prefix;
    }
  } else {
    range.base = *address;
    range.prefix_length = prefix;
  }
  zero_host_bits(range.base, range.prefix_length);
  return range;
}

std::optional<std::vector<IpRange>> parse_ip_ranges(const std::vector<std::string_view>& entries) {
  std::vector<IpRange> ranges;
  ranges.reserve(entries.size());
  for (const auto entry : entries) {
    auto range = parse_ip_range(entry);
    if (!range) return std::nullopt;
    ranges.push_back(*range);
  }
  return ranges;
}

bool any_contains(const std::vector<IpRange>& ranges, const IpAddress& ip) {
  for (const auto& range : ranges) {
    if (range.contains(ip)) return true;
  }
  return false;
}

IpAddress resolve_client_ip(const IpAddress& peer, std::string_view x_forwarded_for,
                            const std::vector<IpRange>& trusted) {
  if (trim_ows(x_forwarded_for).empty() || !any_contains(trusted, peer)) return peer;
  IpAddress leftmost = peer;
  std::string_view remaining = x_forwarded_for;
  while (true) {
    const std::size_t comma = remaining.rfind(',');
    const std::string_view entry =
        trim_ows(comma == std::string_view::npos ? remaining : remaining.substr(comma + 1));
    const auto ip = parse_ip(entry);
    if (!ip) return peer;
    if (!any_contains(trusted, *ip)) return *ip;
    leftmost = *ip;
    if (comma == std::string_view::npos) return leftmost;
    remaining = remaining.substr(0, comma);
  }
}

}  // namespace leadline::auth
