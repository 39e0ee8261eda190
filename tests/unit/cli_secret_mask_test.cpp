// Passwords in database and Redis URLs never reach --print-config.

#include <gtest/gtest.h>

#include "cli/secret_mask.hpp"

namespace leadline::cli {
namespace {

TEST(SecretMask, HidesUserinfoPasswordsAndPasswordParameters) {
  EXPECT_EQ(mask_secrets("postgres://user:pw@host:5432/db"), "postgres://user:***@host:5432/db");
  EXPECT_EQ(mask_secrets("postgresql://user@host/db"), "postgresql://user@host/db");
  EXPECT_EQ(mask_secrets("redis://:pw@127.0.0.1:6379/1"), "redis://:***@127.0.0.1:6379/1");
  EXPECT_EQ(mask_secrets("redis://127.0.0.1:6379"), "redis://127.0.0.1:6379");
  EXPECT_EQ(mask_secrets("postgres://u@h/db?sslmode=require&password=pw"),
            "postgres://u@h/db?sslmode=require&password=***");
  EXPECT_EQ(mask_secrets("host=h user=u password=pw dbname=d"),
            "host=h user=u password=*** dbname=d");
  EXPECT_EQ(mask_secrets("sqlite:./data/leadline.db"), "sqlite:./data/leadline.db");
  // A password holding '@' or ':' is still hidden whole.
  EXPECT_EQ(mask_secrets("postgres://u:p@ss:w@h/db"), "postgres://u:***@h/db");
}

}  // namespace
}  // namespace leadline::cli
