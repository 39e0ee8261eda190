// Unit tests for webhooks/webhook_url: each sentence of the 400 for an endpoint's url, the
// http:// switch, the length limit and IP literal hosts inside blocked ranges.
#include <gtest/gtest.h>

#include <string>

#include "webhooks/webhook_url.hpp"

namespace leadline::webhooks {
namespace url_test {

constexpr std::string_view kNotHttps = "url must be an absolute https:// URL";
constexpr std::string_view kNotHttp = "url must be an absolute http:// or https:// URL";

std::string problem(std::string_view url, bool allow_http = false) {
  static const AddressPolicy policy;
  return url_problem(url, {.allow_http = allow_http, .policy = &policy}).value_or("ok");
}

TEST(WebhookUrl, AcceptsAbsoluteHttpsUrls) {
  EXPECT_EQ(problem("https://example.com/hook"), "ok");
  EXPECT_EQ(problem("https://example.com"), "ok");
  EXPECT_EQ(problem("https://hooks.example.com:8443/a/b?c=d&e=%20"), "ok");
  EXPECT_EQ(problem("HTTPS://Example.COM/"), "ok");
  EXPECT_EQ(problem("https://8.8.8.8/hook"), "ok");
  EXPECT_EQ(problem("https://[2606:4700::1111]/hook"), "ok");
  EXPECT_EQ(problem("https://localhost/hook"), "ok") << "names are not resolved here";
}

TEST(WebhookUrl, RefusesWhatIsNotAnAbsoluteHttpsUrl) {
  for (const auto url :
       {"", "example.com/hook", "/hook", "//example.com/hook", "https:/example.com", "https://",
        "https:///hook", "https://exa mple.com/", "ftp://example.com/", "mailto:a@example.com",
        "https://example.com:99999/", "https://[v1.fe]/", "https://[::1/", "wss://example.com/",
        "http://example.com/hook"}) {
    EXPECT_EQ(problem(url), kNotHttps) << url;
  }
}

TEST(WebhookUrl, HttpOnlyWhenAllowed) {
  EXPECT_EQ(problem("http://example.com/hook", true), "ok");
  EXPECT_EQ(problem("https://example.com/hook", true), "ok");
  EXPECT_EQ(problem("ftp://example.com/hook", true), kNotHttp);
  EXPECT_EQ(problem("example.com", true), kNotHttp);
}

TEST(WebhookUrl, AtMost2048Characters) {
  const std::string prefix = "https://example.com/";
  const std::string at_limit = prefix + std::string(2048 - prefix.size(), 'a');
  ASSERT_EQ(at_limit.size(), 2048u);
  EXPECT_EQ(problem(at_limit), "ok");
  EXPECT_EQ(problem(at_limit + "a"), "url must be at most 2048 characters");
}

TEST(WebhookUrl, NoUserInfoOrFragment) {
  EXPECT_EQ(problem("https://user:secret@example.com/"), "url must not contain user info");
  EXPECT_EQ(problem("https://user@example.com/"), "url must not contain user info");
  EXPECT_EQ(problem("https://@example.com/"), "url must not contain user info");
  EXPECT_EQ(problem("https://example.com/hook#part"), "url must not contain a fragment");
  EXPECT_EQ(problem("https://example.com/hook#"), "url must not contain a fragment");
}

TEST(WebhookUrl, IpLiteralsInBlockedRangesNameTheRange) {
  EXPECT_EQ(problem("https://127.0.0.1/hook"),
            "url points into the blocked address range 127.0.0.0/8");
  EXPECT_EQ(problem("https://10.0.0.5:8443/"),
            "url points into the blocked address range 10.0.0.0/8");
  EXPECT_EQ(problem("https://169.254.169.254/latest/meta-data"),
            "url points into the blocked address range 169.254.0.0/16");
  EXPECT_EQ(problem("https://[::1]/"), "url points into the blocked address range ::1/128");
  EXPECT_EQ(problem("https://[fe80::1]/"), "url points into the blocked address range fe80::/10");
  EXPECT_EQ(problem("https://[::ffff:10.1.2.3]/"),
            "url points into the blocked address range 10.0.0.0/8");
  EXPECT_EQ(problem("https://[64:ff9b::808:808]/"),
            "url points into the blocked address range 64:ff9b::/96");
  // Numeric hosts the C library reads as IPv4 without asking DNS.
  EXPECT_EQ(problem("https://2130706433/"),
            "url points into the blocked address range 127.0.0.0/8");
  EXPECT_EQ(problem("https://0x7f.1/"), "url points into the blocked address range 127.0.0.0/8");
  EXPECT_EQ(problem("https://127.1/"), "url points into the blocked address range 127.0.0.0/8");
  EXPECT_EQ(problem("http://127.0.0.1:8080/", true),
            "url points into the blocked address range 127.0.0.0/8");
}

TEST(WebhookUrl, AllowListAndMissingPolicy) {
  const AddressPolicy loopback(
      {*auth::parse_ip_range("127.0.0.0/8"), *auth::parse_ip_range("::1")});
  EXPECT_EQ(url_problem("https://127.0.0.1/", {.policy = &loopback}), std::nullopt);
  EXPECT_EQ(url_problem("https://[::1]/", {.policy = &loopback}), std::nullopt);
  EXPECT_EQ(url_problem("https://10.0.0.1/", {.policy = &loopback}),
            "url points into the blocked address range 10.0.0.0/8");
  EXPECT_EQ(url_problem("https://127.0.0.1/", {}), std::nullopt) << "no policy: shape only";
  EXPECT_EQ(url_problem("http://127.0.0.1/", {}), kNotHttps);
}

}  // namespace url_test
}  // namespace leadline::webhooks
