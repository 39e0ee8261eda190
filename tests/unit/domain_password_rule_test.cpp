// Passwords: 12 to 128 characters, counted as code points.
#include <gtest/gtest.h>

#include "domain/password_rule.hpp"

namespace leadline::domain {
namespace {

TEST(PasswordRuleTest, TwelveToOneHundredTwentyEightCharacters) {
  EXPECT_TRUE(check_password("elevenchars"));
  EXPECT_FALSE(check_password("twelve chars"));
  EXPECT_FALSE(check_password(std::string(128, 'x')));
  EXPECT_EQ(check_password(std::string(129, 'x')), "password must be 12 to 128 characters long");
  // Twelve characters of two bytes each: long enough.
  std::string umlauts;
  for (int i = 0; i < 12; ++i) umlauts += "\xc3\xbc";
  EXPECT_FALSE(check_password(umlauts));
  EXPECT_TRUE(check_password(umlauts.substr(2)));
}

}  // namespace
}  // namespace leadline::domain
