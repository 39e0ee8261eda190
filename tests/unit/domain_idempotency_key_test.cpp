// Unit tests for domain/idempotency_key: the Idempotency-Key header rule (1 to 255 characters,
// each printable ASCII 0x21..0x7E), kept byte for byte.
#include "domain/idempotency_key.hpp"

#include <gtest/gtest.h>

#include <string>

namespace leadline::domain {
namespace {

bool accepts_key(std::string_view text) {
  const auto key = parse_idempotency_key(text);
  // An accepted key is the header's value unchanged: nothing trimmed, nothing folded.
  return key && key->value == text;
}

TEST(ParseIdempotencyKey, AcceptsOneTo255PrintableCharacters) {
  EXPECT_TRUE(accepts_key("a"));
  EXPECT_TRUE(accepts_key("!"));
  EXPECT_TRUE(accepts_key("~"));
  EXPECT_TRUE(accepts_key("0190a2b4-c5d6-7e8f-9a0b-1c2d3e4f5a6b"));
  EXPECT_TRUE(accepts_key(R"(order:42/"quoted"\back{slash})"));
  EXPECT_TRUE(accepts_key(std::string(kMaxIdempotencyKeyLength, 'k')));
  EXPECT_EQ(kMaxIdempotencyKeyLength, 255u);
}

TEST(ParseIdempotencyKey, AcceptsEveryPrintableCharacterAndKeepsCase) {
  std::string all;
  for (int c = 0x21; c <= 0x7E; ++c) all.push_back(static_cast<char>(c));
  EXPECT_TRUE(accepts_key(all));
  EXPECT_EQ(parse_idempotency_key("AbC")->value, "AbC");
}

TEST(ParseIdempotencyKey, RejectsEmptyAndOverlongValues) {
  EXPECT_FALSE(parse_idempotency_key(""));
  EXPECT_FALSE(parse_idempotency_key(std::string(256, 'k')));
  EXPECT_FALSE(parse_idempotency_key(std::string(10'000, 'k')));
}

TEST(ParseIdempotencyKey, RejectsEveryByteOutsidePrintableAscii) {
  for (int byte = 0; byte <= 0xFF; ++byte) {
    if (byte >= 0x21 && byte <= 0x7E) continue;
    const char c = static_cast<char>(byte);
    SCOPED_TRACE(byte);
    EXPECT_FALSE(parse_idempotency_key(std::string(1, c)));
    EXPECT_FALSE(parse_idempotency_key("ab" + std::string(1, c) + "cd"));
    EXPECT_FALSE(parse_idempotency_key("abcd" + std::string(1, c)));
  }
}

TEST(ParseIdempotencyKey, RejectsSpacesTabsAndNonAsciiText) {
  EXPECT_FALSE(parse_idempotency_key(" key"));
  EXPECT_FALSE(parse_idempotency_key("key "));
  EXPECT_FALSE(parse_idempotency_key("two words"));
  EXPECT_FALSE(parse_idempotency_key("tab\there"));
  EXPECT_FALSE(parse_idempotency_key("caf\xc3\xa9"));
  EXPECT_FALSE(parse_idempotency_key(std::string_view("nul\0byte", 8)));
  // Length is counted in bytes: 254 printable characters and one 2-byte character is refused
  // for the character, not for the length.
  EXPECT_FALSE(parse_idempotency_key(std::string(253, 'k') + "\xc3\xa9"));
}

}  // namespace
}  // namespace leadline::domain
