// Unit tests for domain/field_rules: lengths in code points, required text, e-mail and tags.
#include "domain/field_rules.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace leadline::domain {
namespace {

std::string repeat(std::string_view unit, std::size_t times) {
  std::string s;
  for (std::size_t i = 0; i < times; ++i) s.append(unit);
  return s;
}

const std::string kEAcute = "\xC3\xA9";

TEST(CheckMaxLength, CountsCodePoints) {
  EXPECT_FALSE(check_max_length("visitor_name", repeat(kEAcute, 200), 200));
  const auto error = check_max_length("visitor_name", repeat(kEAcute, 201), 200);
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("visitor_name"), std::string::npos);
  EXPECT_NE(error->find("200"), std::string::npos);
}

TEST(CheckMaxLength, FourByteCharactersCountOnce) {
  EXPECT_FALSE(check_max_length("phone", repeat("\xF0\x9F\x98\x80", 50), 50));
  EXPECT_TRUE(check_max_length("phone", repeat("\xF0\x9F\x98\x80", 51), 50));
}

TEST(CheckMaxLength, EmptyIsWithinAnyLimit) {
  EXPECT_FALSE(check_max_length("f", "", 0));
}

TEST(CheckRequiredText, RejectsEmptyAndWhiteSpaceOnly) {
  for (const std::string value : {"", " ", "\t\n", "\xE3\x80\x80", "\xC2\xA0 "}) {
    const auto error = check_required_text("first_name", value, 100);
    ASSERT_TRUE(error) << value;
    EXPECT_NE(error->find("first_name"), std::string::npos);
  }
}

TEST(CheckRequiredText, AcceptsTextWithSurroundingSpace) {
  EXPECT_FALSE(check_required_text("first_name", " Ada ", 100));
  EXPECT_FALSE(check_required_text("visitor_name", repeat(kEAcute, 200), 200));
}

TEST(CheckRequiredText, EnforcesTheMaximum) {
  EXPECT_TRUE(check_required_text("visitor_name", repeat(kEAcute, 201), 200));
}

// --- e-mail ---------------------------------------------------------------------------------

bool email_ok(std::string_view value) {
  return normalize_email("email", value).address.has_value();
}

TEST(NormalizeEmail, AcceptsOrdinaryAddresses) {
  for (const char* address :
       {"ada@example.com", "a@b.co", "user+tag@sub.example.co.uk", "a.b-c_d@x-y.z", "ada@123.456",
        "\"quoted\"@x.io", "ada@xn--r8jz45g.jp"}) {
    EXPECT_TRUE(email_ok(address)) << address;
  }
}

TEST(NormalizeEmail, AcceptsLettersOfAnyScript) {
  EXPECT_TRUE(email_ok("ada@\xE4\xBE\x8B\xE3\x81\x88.jp"));  // ada@例え.jp
  EXPECT_TRUE(email_ok("m\xC3\xBCller@m\xC3\xBCller.de"));   // müller@müller.de
  EXPECT_TRUE(email_ok("ivan@\xD0\xBF\xD1\x80\xD0\xB8\xD0\xBC\xD0\xB5\xD1\x80.\xD1\x80\xD1\x84"));
  EXPECT_TRUE(email_ok("a@e\xCC\x81x.com"));  // combining acute accent: category M
}

TEST(NormalizeEmail, TrimsAndKeepsCase) {
  const auto check = normalize_email("visitor_email", "  Ada@Example.COM\t\xE3\x80\x80");
  ASSERT_TRUE(check.address);
  EXPECT_FALSE(check.error);
  EXPECT_EQ(*check.address, "Ada@Example.COM");
}

TEST(NormalizeEmail, ErrorNamesTheField) {
  const auto check = normalize_email("visitor_email", "a@b");
  EXPECT_FALSE(check.address);
  ASSERT_TRUE(check.error);
  EXPECT_NE(check.error->find("visitor_email"), std::string::npos);
}

TEST(NormalizeEmail, RequiresExactlyOneAt) {
  EXPECT_FALSE(email_ok("ada.example.com"));
  EXPECT_FALSE(email_ok("a@@b.c"));
  EXPECT_FALSE(email_ok("a@b@c.d"));
}

TEST(NormalizeEmail, RejectsBadLocalParts) {
  EXPECT_FALSE(email_ok("@b.c"));
  EXPECT_FALSE(email_ok("a b@c.d"));
  EXPECT_FALSE(email_ok("a\tb@c.d"));
  EXPECT_FALSE(
      email_ok("a\xC2\xA0"
               "b@c.d"));  // NO-BREAK SPACE is Unicode white space
  EXPECT_FALSE(
      email_ok("a\x01"
               "b@c.d"));
  EXPECT_FALSE(email_ok("a\x7F@c.d"));
  EXPECT_FALSE(
      email_ok("a\xC2\x85"
               "b@c.d"));  // NEL, a C1 control
}

TEST(NormalizeEmail, LocalPartIsAtMost64Characters) {
  EXPECT_TRUE(email_ok(repeat("a", 64) + "@b.co"));
  EXPECT_FALSE(email_ok(repeat("a", 65) + "@b.co"));
  EXPECT_TRUE(email_ok(repeat(kEAcute, 64) + "@b.co"));  // characters, not bytes
}

TEST(NormalizeEmail, DomainNeedsTwoOrMoreValidLabels) {
  EXPECT_FALSE(email_ok("a@b"));
  EXPECT_FALSE(email_ok("a@"));
  EXPECT_FALSE(email_ok("a@-b.c"));
  EXPECT_FALSE(email_ok("a@b-.c"));
  EXPECT_FALSE(email_ok("a@b.-c"));
  EXPECT_TRUE(email_ok("a@b-b.c"));
  EXPECT_FALSE(email_ok("a@b..c"));
  EXPECT_FALSE(email_ok("a@.b.c"));
  EXPECT_FALSE(email_ok("a@b.c."));
  EXPECT_FALSE(email_ok("a@b_c.d"));
  EXPECT_FALSE(email_ok("a@b .c"));
  EXPECT_FALSE(email_ok("a@b.c\x7F"));
  EXPECT_FALSE(email_ok("a@\xF0\x9F\x98\x80.com"));  // an emoji is not a letter
  EXPECT_FALSE(email_ok("a@b\xD9\xA3.com"));  // ARABIC-INDIC DIGIT THREE: digits are 0-9 only
}

TEST(NormalizeEmail, LabelIsAtMost63Characters) {
  EXPECT_TRUE(email_ok("a@" + repeat("b", 63) + ".c"));
  EXPECT_FALSE(email_ok("a@" + repeat("b", 64) + ".c"));
  EXPECT_TRUE(email_ok("a@" + repeat(kEAcute, 63) + ".c"));
}

TEST(NormalizeEmail, WholeAddressIsAtMost254Characters) {
  // 64 + 1 + (63 + 1 + 63 + 1 + 61) = 254
  const std::string local = repeat("a", 64);
  const std::string domain = repeat("b", 63) + "." + repeat("c", 63) + "." + repeat("d", 61);
  EXPECT_TRUE(email_ok(local + "@" + domain));
  EXPECT_FALSE(email_ok(local + "@" + domain + "d"));
  EXPECT_TRUE(email_ok("  " + local + "@" + domain + "  "));  // trimmed before counting
}

TEST(NormalizeEmail, EmptyOrBlankIsInvalid) {
  EXPECT_FALSE(email_ok(""));
  EXPECT_FALSE(email_ok("   "));
}

// --- tags -----------------------------------------------------------------------------------

TEST(NormalizeTags, TrimsThenDeduplicatesKeepingFirstOccurrence) {
  const auto check = normalize_tags("tags", {" a", "b ", "a", "B", "b",
                                             "\xE3\x80\x80"
                                             "a"});
  EXPECT_FALSE(check.error);
  EXPECT_EQ(check.tags, (Tags{"a", "b", "B"}));
}

TEST(NormalizeTags, EmptyListIsFine) {
  const auto check = normalize_tags("tags", {});
  EXPECT_FALSE(check.error);
  EXPECT_TRUE(check.tags.empty());
}

TEST(NormalizeTags, RejectsTagsEmptyAfterTrimming) {
  for (const std::string blank : {"", "  ", "\t"}) {
    const auto check = normalize_tags("tags", {"ok", blank});
    ASSERT_TRUE(check.error) << '"' << blank << '"';
    EXPECT_NE(check.error->find("tags"), std::string::npos);
  }
}

TEST(NormalizeTags, AtMost50AfterDeduplication) {
  std::vector<std::string> fifty;
  for (int i = 0; i < 50; ++i) fifty.push_back(std::string("t").append(std::to_string(i)));
  EXPECT_FALSE(normalize_tags("tags", fifty).error);

  auto with_duplicate = fifty;
  with_duplicate.push_back(" t0 ");
  const auto deduplicated = normalize_tags("tags", with_duplicate);
  EXPECT_FALSE(deduplicated.error);
  EXPECT_EQ(deduplicated.tags.size(), 50u);

  auto fifty_one = fifty;
  fifty_one.push_back("t50");
  EXPECT_TRUE(normalize_tags("tags", fifty_one).error);
}

TEST(NormalizeTags, EachAtMost100CharactersAfterTrimming) {
  EXPECT_FALSE(normalize_tags("tags", {repeat(kEAcute, 100)}).error);
  EXPECT_TRUE(normalize_tags("tags", {repeat(kEAcute, 101)}).error);
  const auto padded = normalize_tags("tags", {"  " + repeat("x", 100) + "  "});
  EXPECT_FALSE(padded.error);
  ASSERT_EQ(padded.tags.size(), 1u);
  EXPECT_EQ(padded.tags[0], repeat("x", 100));
}

TEST(NormalizeTags, IsCaseSensitive) {
  EXPECT_EQ(normalize_tags("tags", {"VIP", "vip"}).tags, (Tags{"VIP", "vip"}));
}

}  // namespace
}  // namespace leadline::domain
