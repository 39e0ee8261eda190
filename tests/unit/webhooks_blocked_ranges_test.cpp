// Unit tests for webhooks/blocked_ranges: every range of the spec's SSRF list at its edges, the
// IPv4-mapped and NAT64 forms, public addresses, and --webhook-allow-private exemptions.
#include <gtest/gtest.h>

#include <string>

#include "webhooks/blocked_ranges.hpp"

namespace leadline::webhooks {
namespace blocked_ranges_test {

auth::IpAddress ip(std::string_view text) {
  const auto parsed = auth::parse_ip(text);
  if (!parsed) ADD_FAILURE() << "not an address: " << text;
  return parsed.value_or(auth::IpAddress{});
}

std::string blocked(const AddressPolicy& policy, std::string_view address) {
  const auto range = policy.blocked_range(ip(address));
  return range ? std::string(*range) : "allowed";
}

struct Edge {
  std::string_view range;
  std::string_view first, last;
  std::string_view below, above;  // just outside, "" when that is in another range or none
};

const Edge kEdges[] = {
    {"0.0.0.0/8", "0.0.0.0", "0.255.255.255", "", "1.0.0.0"},
    {"10.0.0.0/8", "10.0.0.0", "10.255.255.255", "9.255.255.255", "11.0.0.0"},
    {"100.64.0.0/10", "100.64.0.0", "100.127.255.255", "100.63.255.255", "100.128.0.0"},
    {"127.0.0.0/8", "127.0.0.0", "127.255.255.255", "126.255.255.255", "128.0.0.0"},
    {"169.254.0.0/16", "169.254.0.0", "169.254.255.255", "169.253.255.255", "169.255.0.0"},
    {"172.16.0.0/12", "172.16.0.0", "172.31.255.255", "172.15.255.255", "172.32.0.0"},
    {"192.0.0.0/24", "192.0.0.0", "192.0.0.255", "191.255.255.255", "192.0.1.0"},
    {"192.168.0.0/16", "192.168.0.0", "192.168.255.255", "192.167.255.255", "192.169.0.0"},
    {"198.18.0.0/15", "198.18.0.0", "198.19.255.255", "198.17.255.255", "198.20.0.0"},
    {"224.0.0.0/4", "224.0.0.0", "239.255.255.255", "223.255.255.255", ""},
    {"240.0.0.0/4", "240.0.0.0", "255.255.255.255", "", ""},
    {"::/128", "::", "::", "", ""},
    {"::1/128", "::1", "::1", "", "::2"},
    {"fc00::/7", "fc00::", "fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
     "fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "fe00::"},
    {"fe80::/10", "fe80::", "febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
     "fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "fec0::"},
    {"ff00::/8", "ff00::", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
     "feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", ""},
    {"64:ff9b::/96", "64:ff9b::", "64:ff9b::ffff:ffff", "64:ff9a:ffff:ffff:ffff:ffff:ffff:ffff",
     "64:ff9b::1:0:0"},
};

TEST(WebhookBlockedRanges, EveryListedRangeIsBlockedFromFirstToLastAddress) {
  const AddressPolicy policy;
  for (const auto& edge : kEdges) {
    EXPECT_EQ(blocked(policy, edge.first), edge.range) << edge.first;
    EXPECT_EQ(blocked(policy, edge.last), edge.range) << edge.last;
    if (!edge.below.empty()) {
      EXPECT_EQ(blocked(policy, edge.below), "allowed") << edge.below;
    }
    if (!edge.above.empty()) {
      EXPECT_EQ(blocked(policy, edge.above), "allowed") << edge.above;
    }
  }
}

TEST(WebhookBlockedRanges, IPv4MappedAddressesAreJudgedAsIPv4) {
  const AddressPolicy policy;
  EXPECT_EQ(blocked(policy, "::ffff:127.0.0.1"), "127.0.0.0/8");
  EXPECT_EQ(blocked(policy, "::ffff:10.1.2.3"), "10.0.0.0/8");
  EXPECT_EQ(blocked(policy, "::ffff:7f00:1"), "127.0.0.0/8");
  EXPECT_EQ(blocked(policy, "::ffff:169.254.169.254"), "169.254.0.0/16");
  EXPECT_EQ(blocked(policy, "::ffff:8.8.8.8"), "allowed");
  // Built as IPv6 bytes (as from a sockaddr_in6), not folded by parse_ip.
  auth::IpAddress mapped{.v4 = false};
  mapped.bytes = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 192, 168, 1, 1};
  ASSERT_TRUE(policy.blocked_range(mapped).has_value());
  EXPECT_EQ(*policy.blocked_range(mapped), "192.168.0.0/16");
}

TEST(WebhookBlockedRanges, Nat64IsBlockedAsAWhole) {
  const AddressPolicy policy;
  EXPECT_EQ(blocked(policy, "64:ff9b::7f00:1"), "64:ff9b::/96");
  EXPECT_EQ(blocked(policy, "64:ff9b::808:808"), "64:ff9b::/96");  // even 8.8.8.8 behind it
  EXPECT_EQ(blocked(policy, "64:ff9b::127.0.0.1"), "64:ff9b::/96");
}

TEST(WebhookBlockedRanges, PublicAddressesMayConnect) {
  const AddressPolicy policy;
  for (const auto address : {"8.8.8.8", "1.1.1.1", "93.184.216.34", "2606:4700::1111",
                             "2001:4860:4860::8888", "::2", "2002:7f00:1::"}) {
    EXPECT_EQ(blocked(policy, address), "allowed") << address;
  }
}

TEST(WebhookBlockedRanges, AllowedRangesAreExempt) {
  const AddressPolicy policy({*auth::parse_ip_range("127.0.0.0/8"), *auth::parse_ip_range("::1"),
                              *auth::parse_ip_range("10.1.0.0/16")});
  EXPECT_EQ(blocked(policy, "127.0.0.1"), "allowed");
  EXPECT_EQ(blocked(policy, "127.255.255.255"), "allowed");
  EXPECT_EQ(blocked(policy, "::ffff:127.0.0.1"), "allowed");
  EXPECT_EQ(blocked(policy, "::1"), "allowed");
  EXPECT_EQ(blocked(policy, "10.1.2.3"), "allowed");
  EXPECT_EQ(blocked(policy, "::ffff:10.1.2.3"), "allowed");
  // Only what is listed: the rest of 10.0.0.0/8 and the other ranges stay blocked.
  EXPECT_EQ(blocked(policy, "10.2.0.1"), "10.0.0.0/8");
  EXPECT_EQ(blocked(policy, "::"), "::/128");
  EXPECT_EQ(blocked(policy, "192.168.1.1"), "192.168.0.0/16");
  EXPECT_EQ(blocked(policy, "64:ff9b::7f00:1"), "64:ff9b::/96");
}

}  // namespace blocked_ranges_test
}  // namespace leadline::webhooks
