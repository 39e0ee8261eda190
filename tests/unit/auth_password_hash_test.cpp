// Argon2id through libsodium at the OWASP minimum cost, and the session/setup tokens.
#include <gtest/gtest.h>

#include "auth/password_hash.hpp"
#include "auth/secret_token.hpp"

namespace leadline::auth {
namespace {

TEST(PasswordHashTest, StoresArgon2idAtTheOwaspMinimumAndVerifies) {
  const std::string stored = hash_password("correct horse battery");
  EXPECT_TRUE(stored.starts_with("$argon2id$v=19$m=19456,t=2,p=1$")) << stored;
  EXPECT_TRUE(verify_password("correct horse battery", stored));
  EXPECT_FALSE(verify_password("correct horse batterY", stored));
  EXPECT_FALSE(verify_password("correct horse battery", "not a hash"));
  // A fresh salt each time.
  EXPECT_NE(hash_password("correct horse battery"), stored);
}

TEST(SecretTokenTest, Is256RandomBitsInHexStoredOnlyAsItsHash) {
  const std::string a = generate_secret_token();
  const std::string b = generate_secret_token();
  EXPECT_EQ(a.size(), 64u);
  EXPECT_NE(a, b);
  EXPECT_TRUE(looks_like_secret_token(a));
  EXPECT_FALSE(looks_like_secret_token(a.substr(1)));
  EXPECT_FALSE(looks_like_secret_token(std::string(64, 'G')));
  EXPECT_NE(secret_token_hash(a), a);
  EXPECT_EQ(secret_token_hash(a).size(), 64u);
  EXPECT_NE(csrf_token_for(a), csrf_token_for(b));
  EXPECT_NE(csrf_token_for(a), secret_token_hash(a));
}

}  // namespace
}  // namespace leadline::auth
