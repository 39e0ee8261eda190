// Unit tests for webhooks/response_excerpt: invalid UTF-8 becomes U+FFFD, valid text is kept,
// and a sequence cut by the byte limit is dropped rather than replaced.
#include <gtest/gtest.h>

#include "webhooks/response_excerpt.hpp"

namespace leadline::webhooks {
namespace response_excerpt_test {

constexpr std::string_view kFffd = "\xEF\xBF\xBD";

std::string r(std::string_view s) {
  std::string out;
  for (const char c : s) {
    if (c == '?') {
      out += kFffd;
    } else {
      out += c;
    }
  }
  return out;
}

TEST(WebhookResponseExcerpt, KeepsValidText) {
  EXPECT_EQ(utf8_excerpt("", false), "");
  EXPECT_EQ(utf8_excerpt("{\"ok\":true}", false), "{\"ok\":true}");
  EXPECT_EQ(utf8_excerpt("M\xC3\xBCller \xE2\x82\xAC \xF0\x9F\x98\x80", false),
            "M\xC3\xBCller \xE2\x82\xAC \xF0\x9F\x98\x80");
}

TEST(WebhookResponseExcerpt, ReplacesEachMaximalInvalidSubpart) {
  EXPECT_EQ(utf8_excerpt("a\xFF"
                         "b",
                         false),
            r("a?b"));
  EXPECT_EQ(utf8_excerpt("\xFF\xFE", false), r("??"));
  EXPECT_EQ(utf8_excerpt("\x80", false), r("?"));
  EXPECT_EQ(utf8_excerpt("\xC0\xAF", false), r("??")) << "overlong lead";
  EXPECT_EQ(utf8_excerpt("\xE0\x80\x80", false), r("???")) << "overlong";
  EXPECT_EQ(utf8_excerpt("\xED\xA0\x80", false), r("???")) << "surrogate";
  EXPECT_EQ(utf8_excerpt("\xF4\x90\x80\x80", false), r("????")) << "above U+10FFFF";
  EXPECT_EQ(utf8_excerpt("\xE2\x82"
                         "x",
                         false),
            r("?x"))
      << "truncated sequence, one U+FFFD";
  EXPECT_EQ(utf8_excerpt("\xF0\x9F\x98"
                         "x",
                         false),
            r("?x"));
  EXPECT_EQ(utf8_excerpt("x\xE2\x82", false), r("x?")) << "at the end of the whole body";
}

TEST(WebhookResponseExcerpt, DropsASequenceCutByTheLimit) {
  EXPECT_EQ(utf8_excerpt("abc\xE2\x82", true), "abc");
  EXPECT_EQ(utf8_excerpt("abc\xF0", true), "abc");
  EXPECT_EQ(utf8_excerpt("abc\xFF", true), r("abc?")) << "broken, not cut";
  EXPECT_EQ(utf8_excerpt("\xFF"
                         "abc\xE2\x82",
                         true),
            r("?abc"));
}

}  // namespace response_excerpt_test
}  // namespace leadline::webhooks
