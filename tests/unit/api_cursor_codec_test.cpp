// Cursor round trips, and every way a cursor must fail: altered, foreign binding, garbage.
#include <gtest/gtest.h>

#include "api/base64url.hpp"
#include "api/cursor_codec.hpp"

namespace leadline::api {
namespace {

store::KeysetPosition sample() {
  return {{std::int64_t{1764115200123}, 4.5, std::string("müller"), std::monostate{}},
          "01890a5d-ac96-774b-bcce-b302099a8057"};
}

TEST(Base64Url, RoundTripsEveryLength) {
  std::string bytes;
  for (int n = 0; n < 40; ++n) {
    auto decoded = base64url_decode(base64url_encode(bytes));
    ASSERT_TRUE(decoded.has_value());
    EXPECT_EQ(*decoded, bytes);
    bytes.push_back(static_cast<char>(n * 37));
  }
}

TEST(Base64Url, RejectsForeignAlphabetAndPadding) {
  EXPECT_FALSE(base64url_decode("ab+c").has_value());
  EXPECT_FALSE(base64url_decode("ab/c").has_value());
  EXPECT_FALSE(base64url_decode("abc=").has_value());
  EXPECT_FALSE(base64url_decode("a").has_value());
}

TEST(CursorCodec, RoundTripsAllValueKinds) {
  CursorCodec codec("secret");
  const auto position = sample();
  auto decoded = codec.decode(codec.encode(position, "ws|leads|created_at"), "ws|leads|created_at");
  ASSERT_TRUE(std::holds_alternative<store::KeysetPosition>(decoded));
  const auto& p = std::get<store::KeysetPosition>(decoded);
  EXPECT_EQ(p.id, position.id);
  EXPECT_EQ(p.values, position.values);
}

TEST(CursorCodec, IsUrlSafe) {
  CursorCodec codec("secret");
  const std::string cursor = codec.encode(sample(), "b");
  EXPECT_EQ(
      cursor.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"),
      std::string::npos);
}

TEST(CursorCodec, DetectsAnyAlteredCharacter) {
  CursorCodec codec("secret");
  const std::string cursor = codec.encode(sample(), "b");
  for (std::size_t i = 0; i < cursor.size(); ++i) {
    std::string altered = cursor;
    altered[i] = altered[i] == 'A' ? 'B' : 'A';
    EXPECT_TRUE(std::holds_alternative<BadRequest>(codec.decode(altered, "b"))) << "position " << i;
  }
}

TEST(CursorCodec, RejectsOtherBindingOrSecret) {
  CursorCodec codec("secret");
  const std::string cursor = codec.encode(sample(), "workspace-a|leads");
  EXPECT_TRUE(std::holds_alternative<BadRequest>(codec.decode(cursor, "workspace-b|leads")));
  CursorCodec other("another secret");
  EXPECT_TRUE(std::holds_alternative<BadRequest>(other.decode(cursor, "workspace-a|leads")));
}

TEST(CursorCodec, RejectsGarbageWithoutCrashing) {
  CursorCodec codec("secret");
  for (const char* text : {"", "x", "AAAA", "not a cursor", "%%%", "____________________"}) {
    EXPECT_TRUE(std::holds_alternative<BadRequest>(codec.decode(text, "b"))) << text;
  }
  EXPECT_TRUE(std::holds_alternative<BadRequest>(codec.decode(std::string(10000, 'A'), "b")));
}

}  // namespace
}  // namespace leadline::api
