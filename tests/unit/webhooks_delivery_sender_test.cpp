// Unit tests for webhooks/delivery_sender against a real receiver on loopback: the signed headers
// and body, the answers that fail an attempt, Retry-After, the time limit, the excerpt, and the
// SSRF refusals (127.0.0.1 and localhost without the allow-list).
#include <gtest/gtest.h>

#include <string>

#include "support/webhook_receiver.hpp"
#include "webhooks/delivery_sender.hpp"
#include "webhooks/signature.hpp"
#include "webhooks/webhook_secret.hpp"

namespace leadline::webhooks {
namespace delivery_sender_test {

using namespace std::chrono_literals;
using leadline_test::ReceivedRequest;
using leadline_test::ReceiverAnswer;
using leadline_test::WebhookReceiver;

constexpr std::int64_t kNow = 1614265330;
constexpr std::string_view kBody =
    R"({"id":"evt_1","type":"lead.created","data":{"name":"Müller"}})";

AddressPolicy loopback_allowed() {
  return AddressPolicy({*auth::parse_ip_range("127.0.0.0/8"), *auth::parse_ip_range("::1")});
}

SenderConfig config(AddressPolicy policy = loopback_allowed(),
                    std::chrono::milliseconds timeout = 5s) {
  return {.policy = std::move(policy),
          .allow_http = true,
          .timeout = timeout,
          .user_agent = "leadline-webhooks/0.1.0"};
}

Attempt attempt_to(std::string url, std::vector<std::string> secrets = {}) {
  if (secrets.empty()) secrets.push_back(*decode_secret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"));
  return {.url = std::move(url),
          .body = std::string(kBody),
          .msg_id = "0190a0b1-1111-7000-8000-000000000001",
          .secret_bytes_newest_first = std::move(secrets)};
}

ReceiverAnswer answer(unsigned status, std::string body = "",
                      std::vector<std::pair<std::string, std::string>> headers = {}) {
  return {.status = status, .headers = std::move(headers), .body = std::move(body)};
}

TEST(WebhookDeliverySender, SendsTheSignedEventAndSucceedsOn2xx) {
  WebhookReceiver receiver;
  receiver.set_default(answer(204));
  DeliverySender sender(config());
  const std::vector<std::string> secrets = {
      *decode_secret(generate_secret()), *decode_secret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")};
  const Attempt attempt = attempt_to(receiver.url("/hooks/in?source=leadline"), secrets);
  const AttemptResult result = sender.send(attempt, kNow);

  EXPECT_TRUE(result.succeeded()) << result.error.value_or("");
  EXPECT_EQ(result.status_code, 204);
  EXPECT_EQ(result.error, std::nullopt);
  EXPECT_GE(result.duration_ms, 0);
  EXPECT_EQ(result.retry_after, std::nullopt);

  const auto received = receiver.requests();
  ASSERT_EQ(received.size(), 1u);
  const ReceivedRequest& r = received[0];
  EXPECT_EQ(r.method, "POST");
  EXPECT_EQ(r.target, "/hooks/in?source=leadline");
  EXPECT_EQ(r.body, kBody);
  EXPECT_EQ(r.header("content-type"), "application/json");
  EXPECT_EQ(r.header("user-agent"), "leadline-webhooks/0.1.0");
  EXPECT_EQ(r.header("webhook-id"), attempt.msg_id);
  EXPECT_EQ(r.header("webhook-timestamp"), std::to_string(kNow));
  EXPECT_FALSE(r.has_header("expect"));
  // The receiver's check: each listed signature over what actually arrived.
  const std::string header = r.header("webhook-signature");
  EXPECT_EQ(header, sign(secrets[0], r.header("webhook-id"), kNow, r.body) + " " +
                        sign(secrets[1], r.header("webhook-id"), kNow, r.body));
}

TEST(WebhookDeliverySender, ReusesTheConnectionAndResignsEachAttempt) {
  WebhookReceiver receiver;
  DeliverySender sender(config());
  const Attempt attempt = attempt_to(receiver.url());
  EXPECT_TRUE(sender.send(attempt, kNow).succeeded());
  EXPECT_TRUE(sender.send(attempt, kNow + 5).succeeded());
  const auto received = receiver.requests();
  ASSERT_EQ(received.size(), 2u);
  EXPECT_EQ(received[0].body, received[1].body);
  EXPECT_EQ(received[1].header("webhook-timestamp"), std::to_string(kNow + 5));
  EXPECT_NE(received[0].header("webhook-signature"), received[1].header("webhook-signature"));
  EXPECT_EQ(receiver.connections(), 1);
}

TEST(WebhookDeliverySender, OtherStatusesFailTheAttempt) {
  WebhookReceiver receiver;
  receiver.set_default(answer(500, "oops"), "/500");
  receiver.set_default(answer(410), "/410");
  receiver.set_default(answer(400, R"({"error":"bad"})"));
  DeliverySender sender(config());
  AttemptResult result = sender.send(attempt_to(receiver.url("/500")), kNow);
  EXPECT_FALSE(result.succeeded());
  EXPECT_EQ(result.status_code, 500);
  EXPECT_EQ(result.error, "HTTP 500");
  EXPECT_EQ(result.response_excerpt, "oops");
  result = sender.send(attempt_to(receiver.url("/410")), kNow);
  EXPECT_EQ(result.status_code, 410);
  EXPECT_EQ(result.error, "HTTP 410");
  result = sender.send(attempt_to(receiver.url("/400")), kNow);
  EXPECT_EQ(result.error, "HTTP 400");
  EXPECT_EQ(result.response_excerpt, R"({"error":"bad"})");
}

TEST(WebhookDeliverySender, RedirectsAreNotFollowed) {
  WebhookReceiver receiver;
  receiver.set_default(answer(301, "", {{"Location", "/elsewhere"}}), "/moved");
  receiver.set_default(answer(200));
  DeliverySender sender(config());
  const AttemptResult result = sender.send(attempt_to(receiver.url("/moved")), kNow);
  EXPECT_FALSE(result.succeeded());
  EXPECT_EQ(result.status_code, 301);
  EXPECT_EQ(result.error, "redirect (HTTP 301) not followed");
  ASSERT_EQ(receiver.requests().size(), 1u) << "the Location was not requested";
}

TEST(WebhookDeliverySender, RetryAfterOnlyFrom429And503) {
  WebhookReceiver receiver;
  receiver.set_default(answer(503, "", {{"Retry-After", "7"}}), "/503");
  receiver.set_default(answer(429, "", {{"retry-after", "120"}}), "/429");
  receiver.set_default(answer(503, "", {{"Retry-After", "Wed, 21 Oct 2015 07:28:00 GMT"}}),
                       "/date");
  receiver.set_default(answer(500, "", {{"Retry-After", "7"}}));
  DeliverySender sender(config());
  AttemptResult result = sender.send(attempt_to(receiver.url("/503")), kNow);
  EXPECT_EQ(result.error, "HTTP 503");
  EXPECT_EQ(result.retry_after, 7s);
  result = sender.send(attempt_to(receiver.url("/429")), kNow);
  EXPECT_EQ(result.error, "HTTP 429");
  EXPECT_EQ(result.retry_after, 120s);
  result = sender.send(attempt_to(receiver.url("/date")), kNow);
  EXPECT_EQ(result.retry_after, std::nullopt);
  result = sender.send(attempt_to(receiver.url("/500")), kNow);
  EXPECT_EQ(result.error, "HTTP 500");
  EXPECT_EQ(result.retry_after, std::nullopt);
}

TEST(WebhookDeliverySender, ASlowReceiverTimesOut) {
  WebhookReceiver receiver;
  ReceiverAnswer slow = answer(200);
  slow.delay = 1500ms;
  receiver.set_default(slow);
  DeliverySender sender(config(loopback_allowed(), 300ms));
  const AttemptResult result = sender.send(attempt_to(receiver.url()), kNow);
  EXPECT_FALSE(result.succeeded());
  EXPECT_EQ(result.status_code, std::nullopt);
  EXPECT_EQ(result.error, "timed out after 300 ms");
  EXPECT_GE(result.duration_ms, 290);
  EXPECT_LT(result.duration_ms, 1400);
}

TEST(WebhookDeliverySender, KeepsTheFirstKibibyteOfTheAnswer) {
  WebhookReceiver receiver;
  receiver.set_default(answer(200, std::string(5000, 'x')), "/big");
  receiver.set_default(answer(200, std::string(300 * 1024, 'y')), "/huge");
  receiver.set_default(answer(500, std::string(1023, 'a') + "\xC3\xBC" + "tail"), "/cut");
  receiver.set_default(answer(500, "bad \xFF\xFE bytes \xC3"));
  DeliverySender sender(config());
  AttemptResult result = sender.send(attempt_to(receiver.url("/big")), kNow);
  EXPECT_TRUE(result.succeeded());
  EXPECT_EQ(result.response_excerpt, std::string(1024, 'x'));
  // Past the read limit the sender hangs up; the 200 still counts.
  result = sender.send(attempt_to(receiver.url("/huge")), kNow);
  EXPECT_TRUE(result.succeeded()) << result.error.value_or("");
  EXPECT_EQ(result.response_excerpt, std::string(1024, 'y'));
  result = sender.send(attempt_to(receiver.url("/cut")), kNow);
  EXPECT_EQ(result.response_excerpt, std::string(1023, 'a')) << "ü cut in half is dropped";
  result = sender.send(attempt_to(receiver.url("/invalid")), kNow);
  EXPECT_EQ(result.error, "HTTP 500");
  EXPECT_EQ(result.response_excerpt, "bad \xEF\xBF\xBD\xEF\xBF\xBD bytes \xEF\xBF\xBD");
}

TEST(WebhookDeliverySender, LoopbackIsRefusedWithoutTheAllowList) {
  WebhookReceiver receiver;
  DeliverySender sender(config(AddressPolicy{}));
  const AttemptResult result = sender.send(attempt_to(receiver.url()), kNow);
  EXPECT_FALSE(result.succeeded());
  EXPECT_EQ(result.status_code, std::nullopt);
  EXPECT_EQ(result.error, "address 127.0.0.1 is in the blocked range 127.0.0.0/8");
  EXPECT_EQ(receiver.requests().size(), 0u);
  EXPECT_EQ(receiver.connections(), 0);
}

TEST(WebhookDeliverySender, LocalhostIsRefusedBecauseItResolvesToLoopback) {
  WebhookReceiver receiver;
  DeliverySender sender(config(AddressPolicy{}));
  const std::string url = "http://localhost:" + std::to_string(receiver.port()) + "/hook";
  const AttemptResult result = sender.send(attempt_to(url), kNow);
  ASSERT_TRUE(result.error.has_value());
  EXPECT_TRUE(*result.error == "address 127.0.0.1 is in the blocked range 127.0.0.0/8" ||
              *result.error == "address ::1 is in the blocked range ::1/128")
      << *result.error;
  EXPECT_EQ(receiver.connections(), 0);
}

TEST(WebhookDeliverySender, AHostNameIsResolvedAndPinnedWhenAllowed) {
  WebhookReceiver receiver;
  DeliverySender sender(config());
  const std::string url = "http://localhost:" + std::to_string(receiver.port()) + "/hook";
  const AttemptResult result = sender.send(attempt_to(url), kNow);
  EXPECT_TRUE(result.succeeded()) << result.error.value_or("");
  EXPECT_EQ(receiver.requests().size(), 1u);
  // Once more on the same handle: the previous pin is replaced, not duplicated.
  EXPECT_TRUE(sender.send(attempt_to(url), kNow).succeeded());
}

TEST(WebhookDeliverySender, ConnectionRefusedOnAClosedPort) {
  unsigned short port = 0;
  {
    WebhookReceiver closed;
    port = closed.port();
  }
  DeliverySender sender(config());
  const AttemptResult result =
      sender.send(attempt_to("http://127.0.0.1:" + std::to_string(port) + "/hook"), kNow);
  EXPECT_EQ(result.status_code, std::nullopt);
  EXPECT_EQ(result.error, "connection refused");
}

TEST(WebhookDeliverySender, HttpOnlyWhenAllowedAndTlsErrorsAreReported) {
  WebhookReceiver receiver;
  SenderConfig https_only = config();
  https_only.allow_http = false;
  DeliverySender sender(std::move(https_only));
  AttemptResult result = sender.send(attempt_to(receiver.url()), kNow);
  EXPECT_EQ(result.error, "url must be an absolute https:// URL");
  // A plain-HTTP server behind an https:// URL: the handshake fails.
  result =
      sender.send(attempt_to("https://127.0.0.1:" + std::to_string(receiver.port()) + "/"), kNow);
  ASSERT_TRUE(result.error.has_value());
  EXPECT_TRUE(result.error->starts_with("TLS error: ")) << *result.error;
  EXPECT_EQ(result.status_code, std::nullopt);
  EXPECT_TRUE(receiver.requests().empty());
}

TEST(WebhookDeliverySender, UnresolvableHostsAreReported) {
  DeliverySender sender(config());
  const AttemptResult result = sender.send(attempt_to("http://example.invalid/hook"), kNow);
  EXPECT_EQ(result.error, "could not resolve host example.invalid");
  EXPECT_EQ(result.status_code, std::nullopt);
}

}  // namespace delivery_sender_test
}  // namespace leadline::webhooks
