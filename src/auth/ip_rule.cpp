// Parsing and masking of IP addresses and CIDR ranges with Asio's address and network types; the
// rules Asio does not make (what it accepts but the API refuses, IPv4-mapped folding) and the
// X-Forwarded-For walk.
#include "auth/ip_rule.hpp"

#include <algorithm>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/network_v4.hpp>
#include <boost/asio/ip/network_v6.hpp>
#include <charconv>

namespace leadline::auth {

namespace {

namespace asio_ip = boost::asio::ip;

IpAddress from_asio(const asio_ip::address_v4& address) {
  IpAddress out{.v4 = true};
  const auto bytes = address.to_bytes();
  std::copy(bytes.begin(), bytes.end(), out.bytes.begin());
  return out;
}

IpAddress from_asio(const asio_ip::address_v6& address) {
  IpAddress out{.v4 = false};
  const auto bytes = address.to_bytes();
  std::copy(bytes.begin(), bytes.end(), out.bytes.begin());
  return out;
}

asio_ip::address_v4 to_v4(const IpAddress& address) {
  asio_ip::address_v4::bytes_type bytes;
  std::copy_n(address.bytes.begin(), bytes.size(), bytes.begin());
  return asio_ip::address_v4(bytes);
}

asio_ip::address_v6 to_v6(const IpAddress& address) {
  asio_ip::address_v6::bytes_type bytes;
  std::copy_n(address.bytes.begin(), bytes.size(), bytes.begin());
  return asio_ip::address_v6(bytes);
}

IpAddress as_mapped_v6(const IpAddress& v4) {
  return from_asio(asio_ip::make_address_v6(asio_ip::v4_mapped, to_v4(v4)));
}

// The address with the bits after `prefix_length` zeroed.
IpAddress network_of(const IpAddress& address, unsigned prefix_length) {
  const auto prefix = static_cast<unsigned short>(prefix_length);
  if (address.v4) return from_asio(asio_ip::network_v4(to_v4(address), prefix).network());
  return from_asio(asio_ip::network_v6(to_v6(address), prefix).network());
}

// Decimal 0..max without sign or leading zeros ("0" itself is fine), as in the addresses.
// Asio's make_network_v4/v6 read the prefix with atoi, which takes "08" and overflows on a
// long run of digits, so the prefix is read here.
std::optional<unsigned> parse_prefix_length(std::string_view text, unsigned max) {
  if (text.size() > 1 && text.front() == '0') return std::nullopt;
  unsigned value = 0;
  const char* const end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (error != std::errc{} || stop != end || value > max) return std::nullopt;
  return value;
}

std::string_view trim_ows(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::optional<IpAddress> parse_ip(std::string_view text) {
  // Asio reads the text only up to a NUL ("::\0junk" would be "::"), and takes "%..." as a zone
  // (scope id) on any IPv6 address ("::1%eth0"): neither is one plain address, so both are
  // refused here. IPv4 is strict dotted-quad (no "127.1", no leading zeros) because Asio hands
  // it to the C library's inet_pton, which is.
  if (text.find_first_of(std::string_view("\0%", 2)) != std::string_view::npos) {
    return std::nullopt;
  }
  boost::system::error_code error;
  const asio_ip::address address = asio_ip::make_address(text, error);
  if (error) return std::nullopt;
  if (address.is_v4()) return from_asio(address.to_v4());
  const asio_ip::address_v6 v6 = address.to_v6();
  if (v6.is_v4_mapped()) return from_asio(asio_ip::make_address_v4(asio_ip::v4_mapped, v6));
  return from_asio(v6);
}

bool IpRange::contains(const IpAddress& address) const {
  if (base.v4 == address.v4) {
    return network_of(address, prefix_length) == network_of(base, prefix_length);
  }
  // A v6 range covering ::ffff:0:0/96 (for example ::/0) also covers the IPv4 addresses that
  // arrive mapped into it; a v4 range never covers a (non-mapped) v6 address.
  if (!base.v4) {
    return network_of(as_mapped_v6(address), prefix_length) == network_of(base, prefix_length);
  }
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
    const auto parsed = parse_prefix_length(text.substr(slash + 1), max_prefix);
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
  range.base = network_of(range.base, range.prefix_length);
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
