// Unit tests of option values the operator command validates itself: key scopes, the serve
// listen address and the public URL of setup links.
#include <gtest/gtest.h>

#include "cli/public_url.hpp"
#include "cli/scopes.hpp"
#include "cli/serve_settings.hpp"

namespace leadline::cli {
namespace {

domain::ScopeSet scopes_of(std::string_view text) {
  const auto parsed = parse_scopes(text);
  const auto* scopes = std::get_if<domain::ScopeSet>(&parsed);
  return scopes == nullptr ? domain::ScopeSet{} : *scopes;
}

TEST(CliScopes, AnyNonEmptySubsetInCanonicalOrder) {
  EXPECT_EQ(scope_names(scopes_of("read")), (std::vector<std::string>{"read"}));
  EXPECT_EQ(scope_names(scopes_of("write")), (std::vector<std::string>{"write"}));
  EXPECT_EQ(scope_names(scopes_of("write,read,write")),
            (std::vector<std::string>{"read", "write"}));
  EXPECT_EQ(scope_names(scopes_of("read, write")), (std::vector<std::string>{"read", "write"}));
}

TEST(CliScopes, UnknownOrEmptyScopeIsAUsageError) {
  const auto unknown = parse_scopes("read,admin");
  ASSERT_TRUE(std::holds_alternative<Failure>(unknown));
  EXPECT_EQ(std::get<Failure>(unknown).exit_code, kExitUsage);
  EXPECT_NE(std::get<Failure>(unknown).message.find("admin"), std::string::npos);
  EXPECT_TRUE(std::holds_alternative<Failure>(parse_scopes("")));
  EXPECT_TRUE(std::holds_alternative<Failure>(parse_scopes("read,")));
}

TEST(CliListenAddress, HostAndPort) {
  const auto v4 = parse_listen_address("127.0.0.1:8080");
  ASSERT_TRUE(v4.has_value());
  EXPECT_EQ(v4->host, "127.0.0.1");
  EXPECT_EQ(v4->port, 8080);
  const auto v6 = parse_listen_address("[::1]:0");
  ASSERT_TRUE(v6.has_value());
  EXPECT_EQ(v6->host, "::1");
  EXPECT_EQ(v6->port, 0);
  const auto name = parse_listen_address("localhost:9000");
  ASSERT_TRUE(name.has_value());
  EXPECT_EQ(name->host, "localhost");
}

TEST(CliListenAddress, RejectsMalformedAddresses) {
  for (const char* bad :
       {"8080", "127.0.0.1", ":8080", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:-1", "::1:8080",
        "[::1]", "[nope]:80", "[1.2.3.4]:80", "host name:80"}) {
    EXPECT_FALSE(parse_listen_address(bad).has_value()) << bad;
  }
}

TEST(CliPublicUrl, AnOriginAsGivenWithoutATrailingSlash) {
  EXPECT_EQ(parse_public_url("http://127.0.0.1:8080"), "http://127.0.0.1:8080");
  EXPECT_EQ(parse_public_url("https://crm.example.com/"), "https://crm.example.com");
  EXPECT_EQ(parse_public_url("http://[::1]:9000/"), "http://[::1]:9000");
  EXPECT_EQ(parse_public_url("https://localhost"), "https://localhost");
}

TEST(CliPublicUrl, RejectsAnythingButAnHttpOrigin) {
  for (const char* bad :
       {"", "crm.example.com", "ftp://x", "http://", "http:///", "http://x/dashboard", "http://x//",
        "http://x?a", "http://x/#f", "http://u@x", "http://x:", "http://x:0", "http://x:65536",
        "http://under_score", "http://[nope]", " http://x"}) {
    EXPECT_FALSE(parse_public_url(bad).has_value()) << bad;
  }
}

}  // namespace
}  // namespace leadline::cli
