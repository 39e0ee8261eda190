// The dashboard's request checks without a server: the session cookie's parsing and attributes,
// our origin behind trusted proxies, and which state changes count as cross-site.
#include <gtest/gtest.h>

#include "dashboard/request_origin.hpp"
#include "dashboard/session_cookie.hpp"

namespace leadline::dashboard {
namespace {

http::Request with_headers(std::vector<http::Header> headers, std::string_view peer = "127.0.0.1") {
  http::Request r;
  r.method = "POST";
  r.target = "/dashboard/api/keys";
  r.peer_ip = peer;
  r.headers = std::move(headers);
  return r;
}

TEST(SessionCookieTest, FindsOurCookieAmongOthers) {
  EXPECT_EQ(session_cookie(with_headers({{"Cookie", "a=1; leadline_session=abc; b=2"}})), "abc");
  EXPECT_EQ(session_cookie(with_headers({{"Cookie", "leadline_session=x"}})), "x");
  EXPECT_FALSE(session_cookie(with_headers({{"Cookie", "leadline_sessionx=abc"}})));
  EXPECT_FALSE(session_cookie(with_headers({{"Cookie", "other=leadline_session=abc"}})));
  EXPECT_FALSE(session_cookie(with_headers({})));
}

TEST(SessionCookieTest, AttributesKeepItFromScriptsOtherSitesAndTheApi) {
  EXPECT_EQ(session_cookie_header("tok", false),
            "leadline_session=tok; Path=/dashboard; HttpOnly; SameSite=Strict");
  EXPECT_EQ(session_cookie_header("tok", true),
            "leadline_session=tok; Path=/dashboard; HttpOnly; SameSite=Strict; Secure");
  EXPECT_EQ(cleared_session_cookie_header(false),
            "leadline_session=; Max-Age=0; Path=/dashboard; HttpOnly; SameSite=Strict");
}

TEST(RequestOriginTest, ForwardedHeadersCountOnlyFromTrustedProxies) {
  const std::vector<auth::IpRange> proxies{*auth::parse_ip_range("10.0.0.0/8")};
  const auto direct = request_origin(
      with_headers({{"Host", "Example.com:8080"}, {"X-Forwarded-Proto", "https"}}, "192.0.2.1"),
      proxies);
  EXPECT_FALSE(direct.https);
  EXPECT_EQ(direct.origin, "http://example.com:8080");

  const auto proxied = request_origin(with_headers({{"Host", "internal:8080"},
                                                    {"X-Forwarded-Proto", "https, http"},
                                                    {"X-Forwarded-Host", "crm.example.com"}},
                                                   "10.1.2.3"),
                                      proxies);
  EXPECT_TRUE(proxied.https);
  EXPECT_EQ(proxied.origin, "https://crm.example.com");
}

TEST(RequestOriginTest, CrossSiteStateChangesAreRefused) {
  const RequestOrigin ours{false, "http://127.0.0.1:8080"};
  EXPECT_FALSE(cross_site_refusal(with_headers({}), ours));
  EXPECT_FALSE(cross_site_refusal(with_headers({{"Origin", "null"}}), ours));
  EXPECT_FALSE(cross_site_refusal(with_headers({{"Origin", "http://127.0.0.1:8080"}}), ours));
  EXPECT_FALSE(cross_site_refusal(with_headers({{"Sec-Fetch-Site", "same-origin"}}), ours));
  EXPECT_TRUE(cross_site_refusal(with_headers({{"Sec-Fetch-Site", "cross-site"}}), ours));
  EXPECT_TRUE(cross_site_refusal(with_headers({{"Origin", "http://evil.example"}}), ours));
  // Another port or scheme is another origin.
  EXPECT_TRUE(cross_site_refusal(with_headers({{"Origin", "http://127.0.0.1:9090"}}), ours));
  EXPECT_TRUE(cross_site_refusal(with_headers({{"Origin", "https://127.0.0.1:8080"}}), ours));
}

}  // namespace
}  // namespace leadline::dashboard
