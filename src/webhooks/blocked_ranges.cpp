// The list is the spec's, written as the spec writes it, so the sentence of a refusal names the
// range the operator can look up (and list in --webhook-allow-private). IPv4-mapped addresses
// are folded to IPv4 before the check, which is how "the IPv4-mapped forms of the IPv4 ranges"
// are covered without listing them twice.
#include "webhooks/blocked_ranges.hpp"

#include <array>
#include <stdexcept>
#include <string>
#include <utility>

namespace leadline::webhooks {

namespace {

constexpr std::array<std::string_view, 17> kBlockedRanges = {
    "0.0.0.0/8",     "10.0.0.0/8",   "100.64.0.0/10",  "127.0.0.0/8",   "169.254.0.0/16",
    "172.16.0.0/12", "192.0.0.0/24", "192.168.0.0/16", "198.18.0.0/15", "224.0.0.0/4",
    "240.0.0.0/4",   "::/128",       "::1/128",        "fc00::/7",      "fe80::/10",
    "ff00::/8",      "64:ff9b::/96",
};

struct BlockedRange {
  std::string_view text;
  auth::IpRange range;
};

const std::vector<BlockedRange>& blocked_ranges() {
  static const std::vector<BlockedRange> ranges = [] {
    std::vector<BlockedRange> out;
    for (const auto text : kBlockedRanges) {
      const auto range = auth::parse_ip_range(text);
      if (!range) throw std::logic_error("unparseable blocked range " + std::string(text));
      out.push_back({text, *range});
    }
    return out;
  }();
  return ranges;
}

// parse_ip folds ::ffff:a.b.c.d already; an address built from a sockaddr_in6 (the connect-time
// check) may still be mapped, and must not slip past the IPv4 ranges that way.
auth::IpAddress folded(const auth::IpAddress& ip) {
  if (ip.v4) return ip;
  static constexpr std::array<std::uint8_t, 12> kMappedPrefix = {0, 0, 0, 0, 0,    0,
                                                                 0, 0, 0, 0, 0xff, 0xff};
  for (std::size_t i = 0; i < kMappedPrefix.size(); ++i) {
    if (ip.bytes[i] != kMappedPrefix[i]) return ip;
  }
  auth::IpAddress v4{.v4 = true};
  for (std::size_t i = 0; i < 4; ++i) v4.bytes[i] = ip.bytes[12 + i];
  return v4;
}

}  // namespace

AddressPolicy::AddressPolicy(std::vector<auth::IpRange> allowed) : allowed_(std::move(allowed)) {}

std::optional<std::string_view> AddressPolicy::blocked_range(const auth::IpAddress& ip) const {
  const auth::IpAddress address = folded(ip);
  if (auth::any_contains(allowed_, address)) return std::nullopt;
  for (const auto& blocked : blocked_ranges()) {
    if (blocked.range.contains(address)) return blocked.text;
  }
  return std::nullopt;
}

}  // namespace leadline::webhooks
