// Unit tests for webhooks/webhook_secret and webhooks/signature: the Standard Webhooks test
// vector, secret decoding edge cases and the header carrying one signature per secret.
#include <gtest/gtest.h>

#include <string>

#include "webhooks/base64.hpp"
#include "webhooks/signature.hpp"
#include "webhooks/webhook_secret.hpp"

namespace leadline::webhooks {
namespace signature_test {

// The published vector of the Standard Webhooks specification (and Svix's libraries).
constexpr std::string_view kSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
constexpr std::string_view kMsgId = "msg_p5jXN8AQM9LWM0D4loKWxJek";
constexpr std::int64_t kTimestamp = 1614265330;
constexpr std::string_view kBody = R"({"test": 2432232314})";
constexpr std::string_view kSignature = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

std::string secret_of_size(std::size_t n) {
  return "whsec_" + base64_encode(std::string(n, '\x5a'));
}

TEST(WebhookSignature, MatchesTheStandardWebhooksTestVector) {
  const auto secret = decode_secret(kSecret);
  ASSERT_TRUE(secret.has_value());
  EXPECT_EQ(secret->size(), 24u);
  EXPECT_EQ(sign(*secret, kMsgId, kTimestamp, kBody), kSignature);
}

TEST(WebhookSignature, ChangesWithEveryPartSigned) {
  const std::string secret = *decode_secret(kSecret);
  EXPECT_NE(sign(secret, "msg_other", kTimestamp, kBody), kSignature);
  EXPECT_NE(sign(secret, kMsgId, kTimestamp + 1, kBody), kSignature);
  EXPECT_NE(sign(secret, kMsgId, kTimestamp, R"({"test": 2432232315})"), kSignature);
  EXPECT_NE(sign(*decode_secret(secret_of_size(24)), kMsgId, kTimestamp, kBody), kSignature);
}

TEST(WebhookSignature, HeaderListsOneSignaturePerSecretNewestFirst) {
  const std::string old_secret = *decode_secret(kSecret);
  const std::string new_secret = *decode_secret(secret_of_size(32));
  EXPECT_EQ(signature_header({old_secret}, kMsgId, kTimestamp, kBody), kSignature);
  EXPECT_EQ(signature_header({new_secret, old_secret}, kMsgId, kTimestamp, kBody),
            sign(new_secret, kMsgId, kTimestamp, kBody) + " " + std::string(kSignature));
  EXPECT_EQ(signature_header({}, kMsgId, kTimestamp, kBody), "");
}

TEST(WebhookSecret, AcceptsTwentyFourToSixtyFourBytes) {
  EXPECT_FALSE(decode_secret(secret_of_size(23)).has_value());
  ASSERT_TRUE(decode_secret(secret_of_size(24)).has_value());
  EXPECT_EQ(decode_secret(secret_of_size(24))->size(), 24u);
  ASSERT_TRUE(decode_secret(secret_of_size(64)).has_value());
  EXPECT_EQ(decode_secret(secret_of_size(64))->size(), 64u);
  EXPECT_FALSE(decode_secret(secret_of_size(65)).has_value());
  // 25 and 26 bytes end in padding ("=" and "=="), which must be dropped from the bytes.
  EXPECT_EQ(decode_secret(secret_of_size(25))->size(), 25u);
  EXPECT_EQ(decode_secret(secret_of_size(26))->size(), 26u);
}

TEST(WebhookSecret, RefusesMalformedText) {
  const std::string body(kSecret.substr(6));
  EXPECT_FALSE(decode_secret(body).has_value()) << "no prefix";
  EXPECT_FALSE(decode_secret("whsec" + body).has_value());
  EXPECT_FALSE(decode_secret("WHSEC_" + body).has_value());
  EXPECT_FALSE(decode_secret("whsk_" + body).has_value());
  EXPECT_FALSE(decode_secret("whsec_").has_value());
  EXPECT_FALSE(decode_secret("whsec_" + body.substr(1)).has_value()) << "length not 4k";
  EXPECT_FALSE(decode_secret("whsec_" + body.substr(0, 31) + "!").has_value()) << "alphabet";
  EXPECT_FALSE(decode_secret("whsec_" + body.substr(0, 31) + "-").has_value()) << "base64url";
  EXPECT_FALSE(decode_secret("whsec_ " + body.substr(1)).has_value()) << "white space";
  EXPECT_FALSE(decode_secret("whsec_" + body + "\n").has_value());
  EXPECT_FALSE(decode_secret("whsec_" + body.substr(0, 16) + "=" + body.substr(17)).has_value())
      << "padding in the middle";
  // 25 bytes: canonical text ends "Wg==" ... a last character with stray bits is refused.
  std::string stray = secret_of_size(25);
  ASSERT_EQ(stray.substr(stray.size() - 3), "g==");
  stray[stray.size() - 3] = 'h';
  EXPECT_FALSE(decode_secret(stray).has_value());
  EXPECT_FALSE(decode_secret("whsec_" + body.substr(0, 30) + "==").has_value()) << "short";
}

TEST(WebhookSecret, GeneratedSecretsDecodeToThirtyTwoFreshBytes) {
  const std::string a = generate_secret();
  const std::string b = generate_secret();
  EXPECT_TRUE(a.starts_with("whsec_"));
  EXPECT_EQ(a.size(), 6u + 44u);
  const auto bytes = decode_secret(a);
  ASSERT_TRUE(bytes.has_value());
  EXPECT_EQ(bytes->size(), 32u);
  EXPECT_EQ("whsec_" + base64_encode(*bytes), a);
  EXPECT_NE(a, b);
}

TEST(WebhookBase64, RoundTripsEveryLengthAndByte) {
  std::string bytes;
  for (int i = 0; i < 70; ++i) {
    const auto decoded = base64_decode(base64_encode(bytes));
    ASSERT_TRUE(decoded.has_value()) << i;
    EXPECT_EQ(*decoded, bytes) << i;
    bytes.push_back(static_cast<char>(i * 37 + 200));
  }
  EXPECT_EQ(base64_encode("\xfb\xff"), "+/8=");
  EXPECT_EQ(base64_decode("+/8="), std::string("\xfb\xff"));
  EXPECT_EQ(base64_encode(""), "");
  EXPECT_EQ(base64_decode(""), std::string());
  EXPECT_FALSE(base64_decode("====").has_value());
  EXPECT_FALSE(base64_decode("A===").has_value());
}

}  // namespace signature_test
}  // namespace leadline::webhooks
