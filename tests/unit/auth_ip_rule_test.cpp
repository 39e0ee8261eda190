// Unit tests for auth/ip_rule: address and CIDR parsing, matching, and X-Forwarded-For walking.
#include "auth/ip_rule.hpp"

#include <gtest/gtest.h>

#include <string>

namespace leadline::auth {
namespace {

IpAddress ip(std::string_view text) {
  const auto parsed = parse_ip(text);
  if (!parsed) ADD_FAILURE() << "not an address: " << text;
  return parsed.value_or(IpAddress{});
}

IpRange range(std::string_view text) {
  const auto parsed = parse_ip_range(text);
  if (!parsed) ADD_FAILURE() << "not a range: " << text;
  return parsed.value_or(IpRange{});
}

std::vector<IpRange> ranges(std::initializer_list<std::string_view> texts) {
  std::vector<IpRange> out;
  for (const auto text : texts) out.push_back(range(text));
  return out;
}

// --- addresses ------------------------------------------------------------------------------

TEST(ParseIp, ParsesIpv4) {
  const IpAddress a = ip("192.168.1.20");
  EXPECT_TRUE(a.v4);
  EXPECT_EQ(a.bytes[0], 192);
  EXPECT_EQ(a.bytes[1], 168);
  EXPECT_EQ(a.bytes[2], 1);
  EXPECT_EQ(a.bytes[3], 20);
  EXPECT_TRUE(parse_ip("0.0.0.0"));
  EXPECT_TRUE(parse_ip("255.255.255.255"));
}

TEST(ParseIp, RejectsMalformedIpv4) {
  for (const char* text : {"", "1.2.3", "1.2.3.4.5", "256.1.1.1", "1.2.3.-4", "1..3.4", ".1.2.3",
                           "1.2.3.", "a.b.c.d", "1.2.3.4 ", " 1.2.3.4", "1.2.3.4/32", "1.2.3.4:80",
                           "0x7f.0.0.1", "127.1", "2130706433", "1.2.3.1000"}) {
    EXPECT_FALSE(parse_ip(text)) << text;
  }
}

TEST(ParseIp, RejectsLeadingZerosInIpv4) {
  // "010" is 8 to inet_aton and 10 to others; refusing it removes the ambiguity.
  EXPECT_FALSE(parse_ip("01.2.3.4"));
  EXPECT_FALSE(parse_ip("1.2.3.04"));
  EXPECT_FALSE(parse_ip("1.2.3.00"));
  EXPECT_TRUE(parse_ip("10.0.0.0"));
}

TEST(ParseIp, ParsesIpv6) {
  const IpAddress a = ip("2001:db8::1");
  EXPECT_FALSE(a.v4);
  EXPECT_EQ(a.bytes[0], 0x20);
  EXPECT_EQ(a.bytes[1], 0x01);
  EXPECT_EQ(a.bytes[2], 0x0d);
  EXPECT_EQ(a.bytes[3], 0xb8);
  EXPECT_EQ(a.bytes[15], 1);
  EXPECT_EQ(ip("::"), (IpAddress{false, {}}));
  EXPECT_FALSE(ip("::1").v4);
  EXPECT_EQ(ip("2001:DB8::1"), ip("2001:0db8:0000:0000:0000:0000:0000:0001"));
  EXPECT_TRUE(parse_ip("fe80::1:2:3:4"));
  EXPECT_TRUE(parse_ip("64:ff9b::192.0.2.33"));  // embedded IPv4 tail
}

TEST(ParseIp, RejectsMalformedIpv6) {
  for (const char* text : {":", ":::", "1::2::3", "2001:db8::g", "12345::", "[::1]", "::1%eth0",
                           "1:2:3:4:5:6:7:8:9", "::ffff:1.2.3", "::ffff:1.2.3.256", "::1 "}) {
    EXPECT_FALSE(parse_ip(text)) << text;
  }
}

// Asio reads "%..." as a zone (scope id) and stops at a NUL; neither is one plain address.
TEST(ParseIp, RejectsZonesAndNulsThatAsioWouldRead) {
  for (const std::string& text :
       {std::string("fe80::1%1"), std::string("fe80::1%eth0"), std::string("::1%"),
        std::string("::\0junk", 7), std::string("1.2.3.4\0", 8)}) {
    EXPECT_FALSE(parse_ip(text)) << text;
  }
  EXPECT_FALSE(parse_ip_range("fe80::%1/64"));
  EXPECT_FALSE(parse_ip_range(std::string("10.0.0.0/8\0", 11)));
}

TEST(ParseIp, MappedIpv6BecomesIpv4) {
  EXPECT_EQ(ip("::ffff:1.2.3.4"), ip("1.2.3.4"));
  EXPECT_EQ(ip("::FFFF:1.2.3.4"), ip("1.2.3.4"));
  EXPECT_EQ(ip("::ffff:0102:0304"), ip("1.2.3.4"));
  EXPECT_EQ(ip("0:0:0:0:0:ffff:1.2.3.4"), ip("1.2.3.4"));
  EXPECT_TRUE(ip("::ffff:1.2.3.4").v4);
  // Only the ::ffff:0:0/96 block is mapped; the deprecated "compatible" form stays IPv6.
  EXPECT_FALSE(ip("::1.2.3.4").v4);
}

// --- ranges ---------------------------------------------------------------------------------

TEST(ParseIpRange, BareAddressIsAHostRange) {
  const IpRange v4 = range("1.2.3.4");
  EXPECT_EQ(v4.prefix_length, 32u);
  EXPECT_TRUE(v4.contains(ip("1.2.3.4")));
  EXPECT_FALSE(v4.contains(ip("1.2.3.5")));
  const IpRange v6 = range("2001:db8::1");
  EXPECT_EQ(v6.prefix_length, 128u);
  EXPECT_TRUE(v6.contains(ip("2001:db8::1")));
  EXPECT_FALSE(v6.contains(ip("2001:db8::2")));
}

TEST(ParseIpRange, ZeroesHostBits) {
  EXPECT_EQ(range("10.1.2.3/8").base, ip("10.0.0.0"));
  EXPECT_EQ(range("192.168.1.255/23").base, ip("192.168.0.0"));
  EXPECT_EQ(range("2001:db8:abcd::1/32").base, ip("2001:db8::"));
  EXPECT_EQ(range("2001:db8::ffff/127").base, ip("2001:db8::fffe"));
}

TEST(ParseIpRange, MatchesIpv4Cidr) {
  const IpRange r = range("10.0.0.0/8");
  EXPECT_TRUE(r.contains(ip("10.0.0.0")));
  EXPECT_TRUE(r.contains(ip("10.255.255.255")));
  EXPECT_FALSE(r.contains(ip("11.0.0.0")));
  EXPECT_FALSE(r.contains(ip("9.255.255.255")));
  const IpRange odd = range("192.168.4.0/22");
  EXPECT_TRUE(odd.contains(ip("192.168.7.255")));
  EXPECT_FALSE(odd.contains(ip("192.168.8.0")));
  EXPECT_FALSE(odd.contains(ip("192.168.3.255")));
}

TEST(ParseIpRange, PrefixBoundaries) {
  const IpRange all_v4 = range("0.0.0.0/0");
  EXPECT_TRUE(all_v4.contains(ip("1.2.3.4")));
  EXPECT_TRUE(all_v4.contains(ip("255.255.255.255")));
  EXPECT_FALSE(all_v4.contains(ip("2001:db8::1")));
  EXPECT_TRUE(range("1.2.3.4/32").contains(ip("1.2.3.4")));
  EXPECT_FALSE(range("1.2.3.4/32").contains(ip("1.2.3.5")));
  EXPECT_TRUE(range("2001:db8::1/128").contains(ip("2001:db8::1")));
  EXPECT_FALSE(range("2001:db8::1/128").contains(ip("2001:db8::")));
  EXPECT_TRUE(range("5.6.7.8/0").contains(ip("1.2.3.4")));  // /0 ignores the base
}

TEST(ParseIpRange, MatchesIpv6Cidr) {
  const IpRange r = range("2001:db8::/32");
  EXPECT_TRUE(r.contains(ip("2001:db8::1")));
  EXPECT_TRUE(r.contains(ip("2001:db8:ffff:ffff:ffff:ffff:ffff:ffff")));
  EXPECT_FALSE(r.contains(ip("2001:db9::")));
  EXPECT_FALSE(r.contains(ip("1.2.3.4")));
  const IpRange odd = range("2001:db8:8000::/33");
  EXPECT_TRUE(odd.contains(ip("2001:db8:ffff::1")));
  EXPECT_FALSE(odd.contains(ip("2001:db8:7fff::1")));
}

TEST(ParseIpRange, Ipv4RangeNeverContainsIpv6) {
  EXPECT_FALSE(range("0.0.0.0/0").contains(ip("::")));
  EXPECT_FALSE(range("0.0.0.0/0").contains(ip("::1.2.3.4")));
}

TEST(ParseIpRange, MappedPeerMatchesIpv4Entries) {
  const IpAddress peer = ip("::ffff:1.2.3.4");
  EXPECT_TRUE(range("1.2.3.4").contains(peer));
  EXPECT_TRUE(range("1.2.3.0/24").contains(peer));
  EXPECT_FALSE(range("1.2.4.0/24").contains(peer));
}

TEST(ParseIpRange, MappedRangesBecomeIpv4) {
  const IpRange r = range("::ffff:10.0.0.0/104");
  EXPECT_TRUE(r.base.v4);
  EXPECT_EQ(r.prefix_length, 8u);
  EXPECT_TRUE(r.contains(ip("10.20.30.40")));
  EXPECT_FALSE(r.contains(ip("11.0.0.0")));
  EXPECT_EQ(range("::ffff:1.2.3.4").prefix_length, 32u);
  EXPECT_EQ(range("::ffff:1.2.3.4/128").prefix_length, 32u);
  EXPECT_EQ(range("::ffff:0.0.0.0/96").prefix_length, 0u);
  EXPECT_TRUE(range("::ffff:0.0.0.0/96").contains(ip("8.8.8.8")));
}

TEST(ParseIpRange, Ipv6RangesCoveringTheMappedBlockContainIpv4) {
  // ::/0 is every address, IPv4 clients of a dual-stack socket included.
  EXPECT_TRUE(range("::/0").contains(ip("1.2.3.4")));
  EXPECT_TRUE(range("::/0").contains(ip("2001:db8::1")));
  EXPECT_TRUE(range("::ffff:0.0.0.0/80").contains(ip("1.2.3.4")));
  EXPECT_FALSE(range("2001:db8::/32").contains(ip("1.2.3.4")));
}

TEST(ParseIpRange, RejectsInvalidPrefixes) {
  for (const char* text : {"1.2.3.4/33", "1.2.3.4/-1", "1.2.3.4/", "1.2.3.4/a", "1.2.3.4/ 8",
                           "1.2.3.4/8 ", "1.2.3.4/08", "1.2.3.4/1000", "1.2.3.4/8/8",
                           "2001:db8::/129", "2001:db8::/", "::ffff:1.2.3.4/129", "/8", "/"}) {
    EXPECT_FALSE(parse_ip_range(text)) << text;
  }
}

TEST(ParseIpRange, RejectsGarbage) {
  for (const char* text : {"", "localhost", "example.com/24", "1.2.3.4-1.2.3.9", "*", "any",
                           "1.2.3.*", "01.2.3.4/8"}) {
    EXPECT_FALSE(parse_ip_range(text)) << text;
  }
}

TEST(ParseIpRanges, ParsesAllOrNothing) {
  const auto ok = parse_ip_ranges({"10.0.0.0/8", "2001:db8::/32", "1.2.3.4"});
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->size(), 3u);
  EXPECT_FALSE(parse_ip_ranges({"10.0.0.0/8", "nonsense"}));
  const auto none = parse_ip_ranges({});
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());
}

TEST(AnyContains, ChecksEveryRange) {
  const auto list = ranges({"10.0.0.0/8", "2001:db8::/32"});
  EXPECT_TRUE(any_contains(list, ip("10.1.1.1")));
  EXPECT_TRUE(any_contains(list, ip("2001:db8::5")));
  EXPECT_FALSE(any_contains(list, ip("192.168.0.1")));
  EXPECT_FALSE(any_contains({}, ip("10.1.1.1")));
}

// --- X-Forwarded-For (docs/api.md, "Authentication") -----------------------------------------

class ResolveClientIp : public ::testing::Test {
 protected:
  const std::vector<IpRange> trusted = ranges({"10.0.0.0/8", "fd00::/8"});
  const IpAddress proxy = ip("10.0.0.1");
  const IpAddress outsider = ip("203.0.113.9");
};

TEST_F(ResolveClientIp, NoHeaderMeansThePeer) {
  EXPECT_EQ(resolve_client_ip(proxy, "", trusted), proxy);
  EXPECT_EQ(resolve_client_ip(proxy, "   ", trusted), proxy);
}

TEST_F(ResolveClientIp, IgnoredWhenThePeerIsNotTrusted) {
  EXPECT_EQ(resolve_client_ip(outsider, "1.1.1.1", trusted), outsider);
}

TEST_F(ResolveClientIp, IgnoredWithoutTrustedProxies) {
  EXPECT_EQ(resolve_client_ip(proxy, "1.1.1.1", {}), proxy);
}

TEST_F(ResolveClientIp, SingleEntryFromATrustedPeer) {
  EXPECT_EQ(resolve_client_ip(proxy, "1.1.1.1", trusted), ip("1.1.1.1"));
}

TEST_F(ResolveClientIp, FirstUntrustedEntryFromTheRight) {
  EXPECT_EQ(resolve_client_ip(proxy, "1.1.1.1, 2.2.2.2, 10.0.0.5", trusted), ip("2.2.2.2"));
  EXPECT_EQ(resolve_client_ip(proxy, "1.1.1.1, 10.9.9.9, 10.0.0.5", trusted), ip("1.1.1.1"));
  // A spoofed left part cannot win over what the trusted proxies appended.
  EXPECT_EQ(resolve_client_ip(proxy, "6.6.6.6, 2.2.2.2", trusted), ip("2.2.2.2"));
}

TEST_F(ResolveClientIp, AllTrustedMeansTheLeftMost) {
  EXPECT_EQ(resolve_client_ip(proxy, "10.0.0.7, 10.0.0.8, 10.0.0.9", trusted), ip("10.0.0.7"));
  EXPECT_EQ(resolve_client_ip(proxy, "10.0.0.7", trusted), ip("10.0.0.7"));
}

TEST_F(ResolveClientIp, InvalidEntryReachedMeansThePeer) {
  EXPECT_EQ(resolve_client_ip(proxy, "1.1.1.1, garbage, 10.0.0.2", trusted), proxy);
  EXPECT_EQ(resolve_client_ip(proxy, "garbage", trusted), proxy);
  EXPECT_EQ(resolve_client_ip(proxy, "1.1.1.1,", trusted), proxy);  // empty entry
  EXPECT_EQ(resolve_client_ip(proxy, "10.0.0.3, , 10.0.0.2", trusted), proxy);
  EXPECT_EQ(resolve_client_ip(proxy, "1.2.3.4:5678", trusted), proxy);   // with a port
  EXPECT_EQ(resolve_client_ip(proxy, "[2001:db8::1]", trusted), proxy);  // bracketed
  EXPECT_EQ(resolve_client_ip(proxy, "unknown, 10.0.0.2, 10.0.0.3", trusted), proxy);
}

TEST_F(ResolveClientIp, InvalidEntryBeyondTheClientIsNotReached) {
  EXPECT_EQ(resolve_client_ip(proxy, "garbage, 2.2.2.2", trusted), ip("2.2.2.2"));
  EXPECT_EQ(resolve_client_ip(proxy, "garbage, 2.2.2.2, 10.0.0.3", trusted), ip("2.2.2.2"));
}

TEST_F(ResolveClientIp, SpacingAroundCommasIsOptional) {
  EXPECT_EQ(resolve_client_ip(proxy, "1.1.1.1,2.2.2.2", trusted), ip("2.2.2.2"));
  EXPECT_EQ(resolve_client_ip(proxy, "1.1.1.1 ,  2.2.2.2  ", trusted), ip("2.2.2.2"));
  EXPECT_EQ(resolve_client_ip(proxy, " 2.2.2.2\t,\t10.0.0.3", trusted), ip("2.2.2.2"));
}

TEST_F(ResolveClientIp, HandlesIpv6AndMappedEntries) {
  EXPECT_EQ(resolve_client_ip(proxy, "2001:db8::7, fd00::1", trusted), ip("2001:db8::7"));
  EXPECT_EQ(resolve_client_ip(proxy, "::ffff:1.2.3.4", trusted), ip("1.2.3.4"));
  EXPECT_EQ(resolve_client_ip(ip("fd00::9"), "2.2.2.2", trusted), ip("2.2.2.2"));
  EXPECT_EQ(resolve_client_ip(ip("::ffff:10.0.0.1"), "2.2.2.2", trusted), ip("2.2.2.2"));
}

}  // namespace
}  // namespace leadline::auth
