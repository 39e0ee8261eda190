// Generated passwords: their length and alphabet, the password rule, and no repeats.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "auth/random_text.hpp"
#include "domain/password_rule.hpp"

namespace leadline::auth {
namespace {

TEST(GeneratePassword, TwentyAlphanumericsThatPassThePasswordRule) {
  for (int i = 0; i < 100; ++i) {
    const std::string password = generate_password();
    ASSERT_EQ(password.size(), kGeneratedPasswordLength) << password;
    for (const char c : password) {
      EXPECT_TRUE((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
          << password;
    }
    EXPECT_EQ(domain::check_password(password), std::nullopt) << password;
  }
}

TEST(GeneratePassword, PasswordsAreDistinct) {
  std::set<std::string> passwords;
  for (int i = 0; i < 1000; ++i) passwords.insert(generate_password());
  EXPECT_EQ(passwords.size(), 1000u);
}

TEST(RandomAlphanumeric, GivesTheLengthAsked) {
  EXPECT_EQ(random_alphanumeric(0), "");
  EXPECT_EQ(random_alphanumeric(1).size(), 1u);
  EXPECT_EQ(random_alphanumeric(200).size(), 200u);  // more than one pool of random bytes
}

}  // namespace
}  // namespace leadline::auth
