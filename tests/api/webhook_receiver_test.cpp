// The test side of the webhook suites checked on its own, without a leadline server: the
// receiver's programmed answers, delays, keep-alive and concurrent connections, and the
// signature helper against the Standard Webhooks reference vector.

#include <gtest/gtest.h>

#include <future>
#include <string>
#include <thread>

#include "support/checks.hpp"
#include "support/webhook_receiver.hpp"
#include "support/webhook_signature.hpp"

namespace leadline_test {
namespace {

using namespace std::chrono_literals;

HttpResponse post_to(HttpClient& client, const std::string& target, const std::string& body) {
  client.contract_checked = false;  // not the leadline API
  return client.request("POST", target, body, {{"webhook-id", "msg_1"}});
}

TEST(WebhookReceiverSelfTest, SignsLikeTheStandardWebhooksReference) {
  // The example of the Standard Webhooks specification and its reference libraries.
  EXPECT_EQ(
      webhook_signature("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek",
                        "1614265330", R"({"test": 2432232314})"),
      "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  EXPECT_EQ(base64_decode(base64_encode("ab")), "ab");
  EXPECT_EQ(base64_decode(base64_encode("abc")), "abc");
  EXPECT_EQ(base64_decode(base64_encode("abcd")), "abcd");
  EXPECT_EQ(webhook_secret_bytes("whsec_" + base64_encode(std::string(32, 'z')))->size(), 32u);
  EXPECT_FALSE(webhook_secret_bytes("sec_AAAA").has_value());
  EXPECT_FALSE(base64_decode("a*bc").has_value());
  EXPECT_EQ(signature_entries("v1,a v1,b"), (std::vector<std::string>{"v1,a", "v1,b"}));
}

TEST(WebhookReceiverSelfTest, RecordsRequestsAndAnswersAsProgrammed) {
  WebhookReceiver receiver;
  EXPECT_EQ(receiver.url("/x"), "http://127.0.0.1:" + std::to_string(receiver.port()) + "/x");
  receiver.enqueue_statuses("/a", {500, 500});
  receiver.enqueue("/a", ReceiverAnswer{302, {{"Location", receiver.url("/elsewhere")}}, ""});
  receiver.set_default_status(204, "/b");

  HttpClient client("127.0.0.1", receiver.port());
  std::vector<unsigned> statuses;
  for (int i = 0; i < 4; ++i) statuses.push_back(post_to(client, "/a?q=1", "{}").status);
  EXPECT_EQ(statuses, (std::vector<unsigned>{500, 500, 302, 200}));
  EXPECT_EQ(post_to(client, "/b", "x").status, 204u);

  ASSERT_TRUE(receiver.wait_for(5, 2s));
  auto at_a = receiver.requests("/a");
  ASSERT_EQ(at_a.size(), 4u);
  EXPECT_EQ(at_a[0].method, "POST");
  EXPECT_EQ(at_a[0].target, "/a?q=1");
  EXPECT_EQ(at_a[0].path, "/a");
  EXPECT_EQ(at_a[0].body, "{}");
  EXPECT_EQ(at_a[0].header("WEBHOOK-ID"), "msg_1");
  EXPECT_EQ(at_a[2].answered_status, 302u);
  EXPECT_LE(at_a[0].arrived, at_a[3].arrived);
  EXPECT_EQ(receiver.count("/b"), 1u);
  EXPECT_EQ(receiver.count(), 5u);
  EXPECT_FALSE(receiver.wait_for(6, 100ms));
  receiver.clear();
  EXPECT_EQ(receiver.count(), 0u);
}

TEST(WebhookReceiverSelfTest, ADelayedAnswerHoldsUpOnlyItsOwnConnection) {
  WebhookReceiver receiver;
  ReceiverAnswer slow;
  slow.delay = 1500ms;
  receiver.set_default(slow, "/slow");
  auto slow_call = std::async(std::launch::async, [&] {
    HttpClient c("127.0.0.1", receiver.port());
    c.timeout = 500ms;  // gives up before the answer, as a sender with a timeout would
    try {
      return post_to(c, "/slow", "s").status;
    } catch (const std::exception&) {
      return 0u;
    }
  });
  ASSERT_TRUE(receiver.wait_for(1, 2s, "/slow"));
  auto started = std::chrono::steady_clock::now();
  std::vector<std::future<unsigned>> fast;
  for (int i = 0; i < 8; ++i) {
    fast.push_back(std::async(std::launch::async, [&] {
      HttpClient c("127.0.0.1", receiver.port());
      return post_to(c, "/fast", "f").status;
    }));
  }
  for (auto& f : fast) EXPECT_EQ(f.get(), 200u);
  EXPECT_LT(std::chrono::steady_clock::now() - started, 1000ms);
  EXPECT_EQ(slow_call.get(), 0u);  // timed out
  EXPECT_EQ(receiver.count("/fast"), 8u);
}

}  // namespace
}  // namespace leadline_test
