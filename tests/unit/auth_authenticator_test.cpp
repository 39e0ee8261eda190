// Unit tests for the authenticator against the real SQLite store: key checks (401), revocation,
// and the IP whitelist (403) with mapped addresses and trusted proxies.
#include "auth/authenticator.hpp"

#include <gtest/gtest.h>

#include <string>

#include "auth/api_key.hpp"
#include "auth_test_store.hpp"

namespace leadline::auth {
namespace {

class AuthenticatorTest : public ::testing::Test {
 protected:
  testing::TestStore db;
  store::Database& store = *db.store;
  domain::WorkspaceId workspace = store.workspaces().create("auth").id;

  struct IssuedKey {
    std::string plaintext;
    domain::ApiKeyRecord record;
  };

  IssuedKey issue(std::vector<std::string> allowed_ips = {}) {
    const std::string key = generate_api_key();
    auto record = store.keys().create(
        {workspace, "test key", display_prefix(key), hash_api_key(key),
         domain::ScopeSet{}.add(domain::Scope::kRead).add(domain::Scope::kWrite),
         std::move(allowed_ips)});
    return {key, record};
  }

  static std::string bearer(const std::string& key) { return "Bearer " + key; }

  static std::vector<IpRange> trust(std::initializer_list<std::string_view> entries) {
    return parse_ip_ranges(entries).value();
  }
};

AuthFailure failure(const std::variant<AuthenticatedKey, AuthFailure>& result) {
  EXPECT_TRUE(std::holds_alternative<AuthFailure>(result)) << "expected a failure";
  return std::holds_alternative<AuthFailure>(result) ? std::get<AuthFailure>(result)
                                                     : AuthFailure::kMissingOrMalformed;
}

bool succeeded(const std::variant<AuthenticatedKey, AuthFailure>& result) {
  return std::holds_alternative<AuthenticatedKey>(result);
}

TEST_F(AuthenticatorTest, ValidKeyAuthenticates) {
  const auto key = issue();
  Authenticator auth(db.lookup(), {});
  const auto result = auth.authenticate(bearer(key.plaintext), "127.0.0.1", "");
  ASSERT_TRUE(succeeded(result));
  const auto& record = std::get<AuthenticatedKey>(result).key;
  EXPECT_EQ(record.id, key.record.id);
  EXPECT_EQ(record.workspace_id, workspace);
  EXPECT_EQ(record.prefix, display_prefix(key.plaintext));
  EXPECT_FALSE(record.revoked_at);
}

TEST_F(AuthenticatorTest, SchemeIsCaseInsensitive) {
  const auto key = issue();
  Authenticator auth(db.lookup(), {});
  EXPECT_TRUE(succeeded(auth.authenticate("bearer " + key.plaintext, "127.0.0.1", "")));
  EXPECT_TRUE(succeeded(auth.authenticate("BEARER   " + key.plaintext, "127.0.0.1", "")));
}

TEST_F(AuthenticatorTest, MissingOrMalformedHeader) {
  const auto key = issue();
  Authenticator auth(db.lookup(), {});
  for (const std::string& header :
       {std::string(), std::string("Bearer"), std::string("Bearer "), "Basic " + key.plaintext,
        key.plaintext, "Bearer " + key.plaintext + " extra"}) {
    EXPECT_EQ(failure(auth.authenticate(header, "127.0.0.1", "")), AuthFailure::kMissingOrMalformed)
        << header;
  }
}

TEST_F(AuthenticatorTest, TokenThatIsNotAKeyIsUnknown) {
  Authenticator auth(db.lookup(), {});
  EXPECT_EQ(failure(auth.authenticate("Bearer abc", "127.0.0.1", "")),
            AuthFailure::kUnknownOrRevoked);
  EXPECT_EQ(failure(auth.authenticate("Bearer fc_live_short", "127.0.0.1", "")),
            AuthFailure::kUnknownOrRevoked);
}

TEST_F(AuthenticatorTest, UnknownKeyIsRejected) {
  issue();
  Authenticator auth(db.lookup(), {});
  EXPECT_EQ(failure(auth.authenticate(bearer(generate_api_key()), "127.0.0.1", "")),
            AuthFailure::kUnknownOrRevoked);
}

TEST_F(AuthenticatorTest, KeyIsCaseSensitive) {
  auto key = issue();
  std::string altered = key.plaintext;
  char& c = altered.back();
  c = (c >= 'a' && c <= 'z')   ? static_cast<char>(c - 32)
      : (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32)
                               : (c == '0' ? '1' : '0');
  Authenticator auth(db.lookup(), {});
  EXPECT_EQ(failure(auth.authenticate(bearer(altered), "127.0.0.1", "")),
            AuthFailure::kUnknownOrRevoked);
}

// The caller confirms a remembered key with the database (api_handler.cpp, the multi-instance
// and round-trip suites); one it reports unusable is looked up again, and found revoked.
TEST_F(AuthenticatorTest, ARememberedKeyAsksToBeConfirmedAndAForgottenOneIsLookedUpAgain) {
  const auto key = issue();
  Authenticator auth(db.lookup(), {});
  auto first = auth.authenticate(bearer(key.plaintext), "127.0.0.1", "");
  ASSERT_TRUE(succeeded(first));
  EXPECT_FALSE(std::get<AuthenticatedKey>(first).remembered);
  ASSERT_TRUE(std::holds_alternative<domain::ApiKeyRecord>(store.keys().revoke(key.record.id)));
  auto second = auth.authenticate(bearer(key.plaintext), "127.0.0.1", "");
  ASSERT_TRUE(succeeded(second));
  EXPECT_TRUE(std::get<AuthenticatedKey>(second).remembered);
  auth.forget(bearer(key.plaintext));
  EXPECT_EQ(failure(auth.authenticate(bearer(key.plaintext), "127.0.0.1", "")),
            AuthFailure::kUnknownOrRevoked);
}

TEST_F(AuthenticatorTest, RevocationThroughAnotherConnectionCounts) {
  const auto key = issue();
  Authenticator auth(db.lookup(), {});
  ASSERT_TRUE(succeeded(auth.authenticate(bearer(key.plaintext), "127.0.0.1", "")));
  {
    // Another process would open its own store on the same database file.
    auto other = store::open_database("sqlite:" + (db.dir.path() / "t.db").string());
    other->keys().revoke(key.record.id);
  }
  auth.forget(bearer(key.plaintext));
  EXPECT_EQ(failure(auth.authenticate(bearer(key.plaintext), "127.0.0.1", "")),
            AuthFailure::kUnknownOrRevoked);
}

TEST_F(AuthenticatorTest, EmptyWhitelistAllowsAnyAddress) {
  const auto key = issue();
  Authenticator auth(db.lookup(), {});
  EXPECT_TRUE(succeeded(auth.authenticate(bearer(key.plaintext), "203.0.113.7", "")));
  EXPECT_TRUE(succeeded(auth.authenticate(bearer(key.plaintext), "2001:db8::1", "")));
  EXPECT_TRUE(succeeded(auth.authenticate(bearer(key.plaintext), "not an ip", "")));
}

TEST_F(AuthenticatorTest, WhitelistAllowsListedAddressesAndRanges) {
  const auto key = issue({"198.51.100.7", "10.0.0.0/8", "2001:db8::/32"});
  Authenticator auth(db.lookup(), {});
  for (const char* peer :
       {"198.51.100.7", "10.20.30.40", "2001:db8::99", "::ffff:10.1.1.1", "::ffff:198.51.100.7"}) {
    EXPECT_TRUE(succeeded(auth.authenticate(bearer(key.plaintext), peer, ""))) << peer;
  }
  for (const char* peer : {"198.51.100.8", "11.0.0.1", "2001:db9::1", "::1", "127.0.0.1"}) {
    EXPECT_EQ(failure(auth.authenticate(bearer(key.plaintext), peer, "")),
              AuthFailure::kIpNotAllowed)
        << peer;
  }
}

TEST_F(AuthenticatorTest, KeyCheckComesBeforeTheWhitelist) {
  issue({"10.0.0.0/8"});
  Authenticator auth(db.lookup(), {});
  EXPECT_EQ(failure(auth.authenticate(bearer(generate_api_key()), "203.0.113.7", "")),
            AuthFailure::kUnknownOrRevoked);
  EXPECT_EQ(failure(auth.authenticate("", "203.0.113.7", "")), AuthFailure::kMissingOrMalformed);
}

TEST_F(AuthenticatorTest, UnparsablePeerIsNotAllowedForWhitelistedKeys) {
  const auto key = issue({"0.0.0.0/0", "::/0"});
  Authenticator auth(db.lookup(), {});
  EXPECT_EQ(failure(auth.authenticate(bearer(key.plaintext), "", "")), AuthFailure::kIpNotAllowed);
  EXPECT_EQ(failure(auth.authenticate(bearer(key.plaintext), "localhost", "")),
            AuthFailure::kIpNotAllowed);
}

TEST_F(AuthenticatorTest, ForwardedForIsIgnoredWithoutTrustedProxies) {
  const auto key = issue({"198.51.100.7"});
  Authenticator auth(db.lookup(), {});
  EXPECT_EQ(failure(auth.authenticate(bearer(key.plaintext), "10.0.0.1", "198.51.100.7")),
            AuthFailure::kIpNotAllowed);
  EXPECT_TRUE(succeeded(auth.authenticate(bearer(key.plaintext), "198.51.100.7", "10.9.9.9")));
}

TEST_F(AuthenticatorTest, ForwardedForFromATrustedProxyNamesTheClient) {
  const auto key = issue({"198.51.100.7"});
  Authenticator auth(db.lookup(), trust({"10.0.0.0/8"}));
  EXPECT_TRUE(succeeded(
      auth.authenticate(bearer(key.plaintext), "10.0.0.1", "6.6.6.6, 198.51.100.7, 10.0.0.2")));
  EXPECT_EQ(failure(auth.authenticate(bearer(key.plaintext), "10.0.0.1", "198.51.100.7, 6.6.6.6")),
            AuthFailure::kIpNotAllowed);
  // The proxy's own address is not the client's once the header names one.
  EXPECT_EQ(failure(auth.authenticate(bearer(key.plaintext), "10.0.0.1", "6.6.6.6")),
            AuthFailure::kIpNotAllowed);
  // An untrusted peer cannot claim to forward for a whitelisted client.
  EXPECT_EQ(failure(auth.authenticate(bearer(key.plaintext), "6.6.6.6", "198.51.100.7")),
            AuthFailure::kIpNotAllowed);
}

TEST_F(AuthenticatorTest, InvalidForwardedEntryFallsBackToThePeer) {
  const auto key = issue({"10.0.0.1"});
  Authenticator auth(db.lookup(), trust({"10.0.0.0/8"}));
  EXPECT_TRUE(succeeded(auth.authenticate(bearer(key.plaintext), "10.0.0.1", "bogus")));
  EXPECT_EQ(failure(auth.authenticate(bearer(key.plaintext), "10.0.0.1", "6.6.6.6")),
            AuthFailure::kIpNotAllowed);
}

TEST_F(AuthenticatorTest, MalformedWhitelistEntryMatchesNothing) {
  const auto key = issue({"not-an-address", "198.51.100.7"});
  Authenticator auth(db.lookup(), {});
  EXPECT_TRUE(succeeded(auth.authenticate(bearer(key.plaintext), "198.51.100.7", "")));
  EXPECT_EQ(failure(auth.authenticate(bearer(key.plaintext), "203.0.113.1", "")),
            AuthFailure::kIpNotAllowed);
}

}  // namespace
}  // namespace leadline::auth
