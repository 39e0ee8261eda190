// Unit tests for auth/api_key: key format, hashing, display prefix and Bearer parsing.
#include "auth/api_key.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

namespace leadline::auth {
namespace {

bool is_alnum_ascii(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

TEST(GenerateApiKey, IsPrefixPlus40Alphanumerics) {
  for (int i = 0; i < 100; ++i) {
    const std::string key = generate_api_key();
    ASSERT_EQ(key.size(), 48u) << key;
    EXPECT_EQ(key.substr(0, 8), "fc_live_");
    for (const char c : key.substr(8)) EXPECT_TRUE(is_alnum_ascii(c)) << key;
    EXPECT_TRUE(looks_like_api_key(key)) << key;
  }
}

TEST(GenerateApiKey, KeysAreDistinct) {
  std::set<std::string> keys;
  for (int i = 0; i < 2000; ++i) keys.insert(generate_api_key());
  EXPECT_EQ(keys.size(), 2000u);
}

TEST(GenerateApiKey, UsesTheWholeAlphabetEvenly) {
  // 2000 keys give 80000 characters, about 1290 of each of the 62; a biased draw (for example
  // a plain byte % 62) would over-represent the first eight characters by about 25%.
  std::map<char, int> counts;
  for (int i = 0; i < 2000; ++i) {
    for (const char c : generate_api_key().substr(8)) ++counts[c];
  }
  ASSERT_EQ(counts.size(), 62u);
  for (const auto& [c, n] : counts) {
    EXPECT_GT(n, 1100) << c;
    EXPECT_LT(n, 1480) << c;
  }
}

TEST(HashApiKey, IsLowercaseHexSha256) {
  EXPECT_EQ(hash_api_key("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(hash_api_key(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  const std::string hash = hash_api_key(generate_api_key());
  ASSERT_EQ(hash.size(), 64u);
  for (const char c : hash) {
    EXPECT_TRUE((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')) << hash;
  }
}

TEST(HashApiKey, IsDeterministicAndDistinguishesKeys) {
  const std::string key = generate_api_key();
  EXPECT_EQ(hash_api_key(key), hash_api_key(key));
  EXPECT_NE(hash_api_key(key), hash_api_key(generate_api_key()));
}

TEST(DisplayPrefix, IsTheLiteralPrefixPlusFourCharacters) {
  EXPECT_EQ(display_prefix("fc_live_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd"), "fc_live_AbCd");
  const std::string key = generate_api_key();
  EXPECT_EQ(display_prefix(key), key.substr(0, 12));
}

TEST(LooksLikeApiKey, RejectsOtherShapes) {
  const std::string good = "fc_live_" + std::string(40, 'a');
  EXPECT_TRUE(looks_like_api_key(good));
  EXPECT_FALSE(looks_like_api_key(""));
  EXPECT_FALSE(looks_like_api_key("fc_live_"));
  EXPECT_FALSE(looks_like_api_key("fc_test_" + std::string(40, 'a')));
  EXPECT_FALSE(looks_like_api_key("FC_LIVE_" + std::string(40, 'a')));
  EXPECT_FALSE(looks_like_api_key("fc_live_" + std::string(39, 'a')));
  EXPECT_FALSE(looks_like_api_key("fc_live_" + std::string(41, 'a')));
  EXPECT_FALSE(looks_like_api_key("fc_live_" + std::string(39, 'a') + "-"));
  EXPECT_FALSE(looks_like_api_key("fc_live_" + std::string(39, 'a') + "_"));
  EXPECT_FALSE(looks_like_api_key("fc_live_" + std::string(38, 'a') + "\xC3\xA9"));
  EXPECT_FALSE(looks_like_api_key(" " + good.substr(1)));
}

TEST(ParseBearerToken, AcceptsTheSchemeInAnyCase) {
  for (const char* header : {"Bearer abc", "bearer abc", "BEARER abc", "bEaReR abc"}) {
    EXPECT_EQ(parse_bearer_token(header), "abc") << header;
  }
}

TEST(ParseBearerToken, ToleratesExtraSpaces) {
  EXPECT_EQ(parse_bearer_token("Bearer    abc"), "abc");
  EXPECT_EQ(parse_bearer_token("Bearer abc   "), "abc");
  EXPECT_EQ(parse_bearer_token("Bearer abc \t"), "abc");
  EXPECT_EQ(parse_bearer_token("  Bearer abc"), "abc");
}

TEST(ParseBearerToken, ReturnsTheWholeToken) {
  const std::string key = generate_api_key();
  EXPECT_EQ(parse_bearer_token("Bearer " + key), key);
}

TEST(ParseBearerToken, RejectsOtherSchemes) {
  for (const char* header :
       {"Basic YWxhZGRpbjpvcGVuc2VzYW1l", "Token abc", "Bearerx abc", "Bear abc", "abc"}) {
    EXPECT_FALSE(parse_bearer_token(header)) << header;
  }
}

TEST(ParseBearerToken, RejectsAMissingToken) {
  for (const char* header : {"", "Bearer", "Bearer ", "Bearer     ", "bearer\t"}) {
    EXPECT_FALSE(parse_bearer_token(header)) << '"' << header << '"';
  }
}

TEST(ParseBearerToken, RejectsMalformedSeparatorsAndTokens) {
  EXPECT_FALSE(parse_bearer_token("Bearerabc"));
  EXPECT_FALSE(parse_bearer_token("Bearer\tabc"));  // the separator is one or more spaces
  EXPECT_FALSE(parse_bearer_token("Bearer abc def"));
  EXPECT_FALSE(parse_bearer_token("Bearer abc\tdef"));
}

TEST(ConstantTimeEquals, ComparesContentAndLength) {
  EXPECT_TRUE(constant_time_equals("", ""));
  EXPECT_TRUE(constant_time_equals("secret", "secret"));
  EXPECT_FALSE(constant_time_equals("secret", "secreT"));
  EXPECT_FALSE(constant_time_equals("secret", "secret2"));
  EXPECT_FALSE(constant_time_equals("", "x"));
  const std::string hash = hash_api_key("k");
  EXPECT_TRUE(constant_time_equals(hash, hash_api_key("k")));
}

}  // namespace
}  // namespace leadline::auth
