// Unit tests for domain/unicode_text: UTF-8 validity, code point counts, case folding, trimming.
#include "domain/unicode_text.hpp"

#include <gtest/gtest.h>

#include <string>

namespace leadline::domain {
namespace {

using namespace std::string_literals;

TEST(Utf8Validity, AcceptsWellFormedText) {
  EXPECT_TRUE(is_valid_utf8(""));
  EXPECT_TRUE(is_valid_utf8("plain ASCII"));
  EXPECT_TRUE(is_valid_utf8("\xC3\xA9"));          // é, 2 bytes
  EXPECT_TRUE(is_valid_utf8("\xE2\x82\xAC"));      // €, 3 bytes
  EXPECT_TRUE(is_valid_utf8("\xF0\x9F\x98\x80"));  // 😀, 4 bytes
  EXPECT_TRUE(is_valid_utf8("a\0b"s));             // NUL is a code point like any other
  EXPECT_TRUE(is_valid_utf8("\xED\x9F\xBF"));      // U+D7FF, just below the surrogates
  EXPECT_TRUE(is_valid_utf8("\xEE\x80\x80"));      // U+E000, just above them
  EXPECT_TRUE(is_valid_utf8("\xF4\x8F\xBF\xBF"));  // U+10FFFF, the last code point
}

TEST(Utf8Validity, RejectsOverlongForms) {
  EXPECT_FALSE(is_valid_utf8("\xC0\x80"));          // NUL in two bytes
  EXPECT_FALSE(is_valid_utf8("\xC1\xBF"));          // U+007F in two bytes
  EXPECT_FALSE(is_valid_utf8("\xE0\x80\xAF"));      // '/' in three bytes
  EXPECT_FALSE(is_valid_utf8("\xE0\x9F\xBF"));      // U+07FF in three bytes
  EXPECT_FALSE(is_valid_utf8("\xF0\x82\x82\xAC"));  // € in four bytes
  EXPECT_FALSE(is_valid_utf8("\xF0\x8F\xBF\xBF"));  // U+FFFF in four bytes
}

TEST(Utf8Validity, RejectsSurrogatesAndCodePointsAboveTheRange) {
  EXPECT_FALSE(is_valid_utf8("\xED\xA0\x80"));      // U+D800
  EXPECT_FALSE(is_valid_utf8("\xED\xBF\xBF"));      // U+DFFF
  EXPECT_FALSE(is_valid_utf8("\xF4\x90\x80\x80"));  // U+110000
  EXPECT_FALSE(is_valid_utf8("\xF5\x80\x80\x80"));
  EXPECT_FALSE(is_valid_utf8("\xFE"));
  EXPECT_FALSE(is_valid_utf8("\xFF"));
}

TEST(Utf8Validity, RejectsTruncatedAndStraySequences) {
  EXPECT_FALSE(is_valid_utf8("\xC3"));
  EXPECT_FALSE(is_valid_utf8("abc\xE2\x82"));
  EXPECT_FALSE(is_valid_utf8("\xF0\x9F\x98"));
  EXPECT_FALSE(is_valid_utf8("\xC3("));  // lead byte followed by a non-continuation
  EXPECT_FALSE(is_valid_utf8("\x80"));   // continuation without a lead byte
  EXPECT_FALSE(
      is_valid_utf8("a\xBF"
                    "b"));
}

TEST(CodePointCount, CountsCodePointsNotBytes) {
  EXPECT_EQ(code_point_count(""), 0u);
  EXPECT_EQ(code_point_count("abc"), 3u);
  EXPECT_EQ(code_point_count("h\xC3\xA9llo"), 5u);
  EXPECT_EQ(code_point_count("\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E"), 3u);  // 日本語
  EXPECT_EQ(code_point_count("\xF0\x9F\x98\x80!"), 2u);
}

TEST(DecodeCodePoint, DecodesAndAdvances) {
  const std::string s = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80";
  std::size_t i = 0;
  EXPECT_EQ(decode_code_point(s, i), U'a');
  EXPECT_EQ(i, 1u);
  EXPECT_EQ(decode_code_point(s, i), U'\u00E9');
  EXPECT_EQ(i, 3u);
  EXPECT_EQ(decode_code_point(s, i), U'\u20AC');
  EXPECT_EQ(i, 6u);
  EXPECT_EQ(decode_code_point(s, i), U'\U0001F600');
  EXPECT_EQ(i, 10u);
}

TEST(AppendUtf8, EncodesEveryLength) {
  std::string out;
  append_utf8(out, U'a');
  append_utf8(out, U'\u00E9');
  append_utf8(out, U'\u20AC');
  append_utf8(out, U'\U0001F600');
  EXPECT_EQ(out, "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
}

TEST(CaseFold, FoldsLatinWithDiacritics) {
  EXPECT_EQ(case_fold("M\xC3\x9CLLER"), "m\xC3\xBCller");  // MÜLLER -> müller
  EXPECT_EQ(case_fold("\xC3\x89"
                      "COLE"),
            "\xC3\xA9"
            "cole");  // ÉCOLE -> école
  EXPECT_EQ(case_fold("M\xC3\xBCller"), case_fold("M\xC3\x9CLLER"));
}

TEST(CaseFold, FoldsAsciiOnlyLetters) {
  EXPECT_EQ(case_fold("Hello World 123!@[`{"), "hello world 123!@[`{");
  EXPECT_EQ(case_fold("already lower"), "already lower");
}

TEST(CaseFold, FoldsGreekIncludingFinalSigma) {
  // ΣΊΣΥΦΟΣ -> σίσυφοσ; simple folding maps final ς to σ as well.
  EXPECT_EQ(case_fold("\xCE\xA3\xCE\x8A\xCE\xA3\xCE\xA5\xCE\xA6\xCE\x9F\xCE\xA3"),
            "\xCF\x83\xCE\xAF\xCF\x83\xCF\x85\xCF\x86\xCE\xBF\xCF\x83");
  EXPECT_EQ(case_fold("\xCF\x82"), "\xCF\x83");
  EXPECT_EQ(case_fold("\xCE\x91\xCE\x92\xCE\x93"), "\xCE\xB1\xCE\xB2\xCE\xB3");  // ΑΒΓ
}

TEST(CaseFold, FoldsCyrillic) {
  // МОСКВА -> москва, Ё -> ё
  EXPECT_EQ(case_fold("\xD0\x9C\xD0\x9E\xD0\xA1\xD0\x9A\xD0\x92\xD0\x90"),
            "\xD0\xBC\xD0\xBE\xD1\x81\xD0\xBA\xD0\xB2\xD0\xB0");
  EXPECT_EQ(case_fold("\xD0\x81"), "\xD1\x91");
}

TEST(CaseFold, UsesSimpleFoldingOnly) {
  EXPECT_EQ(case_fold("\xC3\x9F"), "\xC3\x9F");                  // ß has no simple folding
  EXPECT_EQ(case_fold("\xE1\xBA\x9E"), "\xC3\x9F");              // ẞ -> ß
  EXPECT_EQ(case_fold("\xE2\x84\xAA"), "k");                     // KELVIN SIGN -> k
  EXPECT_EQ(case_fold("\xC5\xBF"), "s");                         // LONG S -> s
  EXPECT_EQ(case_fold("\xF0\x90\x90\x80"), "\xF0\x90\x90\xA8");  // Deseret, 4 bytes
}

TEST(CaseFold, LeavesUncasedScriptsAlone) {
  const std::string text = "\xE6\x97\xA5\xE6\x9C\xAC 42 \xF0\x9F\x98\x80";
  EXPECT_EQ(case_fold(text), text);
}

TEST(TrimUnicodeSpace, TrimsBothEnds) {
  EXPECT_EQ(trim_unicode_space("  ada \t\n"), "ada");
  EXPECT_EQ(trim_unicode_space("\xE3\x80\x80"
                               "ada\xC2\xA0"),
            "ada");                                                     // ideographic space, NBSP
  EXPECT_EQ(trim_unicode_space("\xE2\x80\x83x y\xE2\x80\xA8"), "x y");  // em space, line sep
  EXPECT_EQ(trim_unicode_space("a  b"), "a  b");
}

TEST(TrimUnicodeSpace, AllSpaceBecomesEmpty) {
  EXPECT_EQ(trim_unicode_space(""), "");
  EXPECT_EQ(trim_unicode_space(" \t\r\n\xE3\x80\x80"), "");
}

TEST(TrimUnicodeSpace, KeepsNonSpaceFormatCharacters) {
  // U+200B ZERO WIDTH SPACE and U+FEFF are not White_Space.
  EXPECT_EQ(trim_unicode_space("\xE2\x80\x8B"
                               "a"),
            "\xE2\x80\x8B"
            "a");
  EXPECT_EQ(trim_unicode_space("a\xEF\xBB\xBF"), "a\xEF\xBB\xBF");
}

TEST(TrimUnicodeSpace, KeepsMultiByteCharactersAtTheEdges) {
  EXPECT_EQ(trim_unicode_space(" \xC3\xA9t\xC3\xA9 "), "\xC3\xA9t\xC3\xA9");
}

TEST(IsUnicodeSpace, FollowsTheWhiteSpaceProperty) {
  for (char32_t cp :
       {U' ', U'\t', U'\n', U'\v', U'\f', U'\r', U'\u0085', U'\u00A0', U'\u1680', U'\u2000',
        U'\u200A', U'\u2028', U'\u2029', U'\u202F', U'\u205F', U'\u3000'}) {
    EXPECT_TRUE(is_unicode_space(cp)) << static_cast<unsigned>(cp);
  }
  for (char32_t cp : {U'a', U'\u200B', U'\uFEFF', U'\u180E', U'\0'}) {
    EXPECT_FALSE(is_unicode_space(cp)) << static_cast<unsigned>(cp);
  }
}

}  // namespace
}  // namespace leadline::domain
