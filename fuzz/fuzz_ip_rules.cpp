// Fuzzes IP rules: input lines are the peer, X-Forwarded-For and the trusted ranges; checks
// parse_ip against inet_pton and the CIDR and X-Forwarded-For rules of docs/api.md.
#include <arpa/inet.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "auth/ip_rule.hpp"
#include "fuzz_check.hpp"

using namespace leadline;

namespace {

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  while (true) {
    const std::size_t at = text.find(separator);
    parts.push_back(text.substr(0, at));
    if (at == std::string_view::npos) return parts;
    text.remove_prefix(at + 1);
  }
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// parse_ip must agree with the C library, with IPv4-mapped IPv6 folded to IPv4.
void check_ip(std::string_view text) {
  const auto ip = auth::parse_ip(text);
  if (ip && ip->v4) {
    for (std::size_t i = 4; i < ip->bytes.size(); ++i) {
      FUZZ_CHECK(ip->bytes[i] == 0, "an IPv4 address has bytes beyond the fourth");
    }
  }
  if (text.find('\0') != std::string_view::npos) {
    FUZZ_CHECK(!ip, "an address with NUL in it was accepted");
    return;
  }
  const std::string copy(text);
  unsigned char bytes[16];
  const bool is_v6 = text.find(':') != std::string_view::npos;
  const bool libc = inet_pton(is_v6 ? AF_INET6 : AF_INET, copy.c_str(), bytes) == 1;
  FUZZ_CHECK(ip.has_value() == libc, "parse_ip disagrees with inet_pton");
  if (!ip) return;
  const bool mapped = is_v6 && std::memcmp(bytes, "\0\0\0\0\0\0\0\0\0\0\xff\xff", 12) == 0;
  FUZZ_CHECK(ip->v4 == (!is_v6 || mapped), "wrong address family");
  FUZZ_CHECK(std::memcmp(ip->bytes.data(), mapped ? bytes + 12 : bytes, ip->v4 ? 4 : 16) == 0,
             "parse_ip bytes differ from inet_pton");
}

void check_range(std::string_view text, const auth::IpRange& range) {
  FUZZ_CHECK(range.prefix_length <= (range.base.v4 ? 32u : 128u), "prefix length out of range");
  FUZZ_CHECK(range.contains(range.base), "a range does not contain its own base");
  // Host bits are zero: the base with its last bit flipped is outside unless it is a host bit.
  const unsigned width = range.base.v4 ? 32 : 128;
  for (unsigned bit = range.prefix_length; bit < width; ++bit) {
    FUZZ_CHECK((range.base.bytes[bit / 8] & (0x80 >> (bit % 8))) == 0, "host bits not zeroed");
  }
  const auto address = auth::parse_ip(text.substr(0, text.find('/')));
  FUZZ_CHECK(address.has_value(), "a range parsed from an unparseable address");
  FUZZ_CHECK(range.contains(*address), "a range does not contain the address it was written with");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto lines = split(fuzz::as_text(data, size), '\n');
  const std::string_view peer_text = lines[0];
  const std::string_view forwarded = lines.size() > 1 ? lines[1] : std::string_view{};
  const std::string_view trusted_text = lines.size() > 2 ? lines[2] : std::string_view{};

  check_ip(peer_text);
  for (const auto entry : split(forwarded, ',')) check_ip(trim(entry));

  std::vector<auth::IpRange> trusted;
  const auto entries = split(trusted_text, ',');
  bool all_valid = true;
  for (const auto entry : entries) {
    const auto range = auth::parse_ip_range(entry);
    if (range) {
      check_range(entry, *range);
      trusted.push_back(*range);
    }
    all_valid = all_valid && range.has_value();
  }
  const auto ranges = auth::parse_ip_ranges(entries);
  FUZZ_CHECK(ranges.has_value() == all_valid, "parse_ip_ranges disagrees with its entries");

  const auto peer = auth::parse_ip(peer_text).value_or(auth::IpAddress{true, {127, 0, 0, 1}});
  const auto client = auth::resolve_client_ip(peer, forwarded, trusted);
  if (client == peer) return 0;
  // Anything but the peer must come from the header, and only when the peer is trusted.
  FUZZ_CHECK(auth::any_contains(trusted, peer), "an untrusted peer's header was believed");
  bool listed = false;
  for (const auto entry : split(forwarded, ',')) {
    const auto ip = auth::parse_ip(trim(entry));
    listed = listed || (ip && *ip == client);
  }
  FUZZ_CHECK(listed, "the client address is neither the peer nor in X-Forwarded-For");
  return 0;
}
