// Authentication and authorisation: Bearer keys (401), revocation, scopes (403), IP whitelists
// with CIDR ranges, X-Forwarded-For behind --trust-proxy, and the order of the checks.

#include <gtest/gtest.h>

#include <string>

#include "support/fixture.hpp"

namespace leadline_test {
namespace {

class AuthTest : public ApiTest {
 protected:
  HttpResponse get_with(const std::string& authorization, const std::string& path = "/leads",
                        Headers extra = {}) {
    extra.emplace_back("Authorization", authorization);
    return client().request("GET", std::string(kBase) + path, std::nullopt, extra);
  }
};

TEST_F(AuthTest, MissingOrInvalidKeyIs401WithoutRateLimitHeaders) {
  const std::string key = ws_.rw.key;
  std::vector<std::optional<std::string>> cases = {
      std::nullopt,
      "Bearer",
      "Bearer ",
      "Bearer fc_live_" + repeat("a", 40),
      "Bearer " + key + "x",
      "Bearer " + key.substr(0, key.size() - 1),
      "Bearer " + key.substr(8),
      "Basic " + key,
      "Token " + key,
      key,
      "Bearer fc_test_" + key.substr(8),
  };
  for (const auto& auth : cases) {
    SCOPED_TRACE(auth.value_or("(no header)"));
    Headers h;
    if (auth) h.emplace_back("Authorization", *auth);
    HttpResponse r = client().request("GET", api_path("/leads"), std::nullopt, h);
    EXPECT_TRUE(is_error(r, 401));
    EXPECT_TRUE(has_json_content_type(r));
    EXPECT_TRUE(has_rate_limit_headers(r, false));
  }
  HttpResponse post_401 = send("POST", "/leads", std::string(R"({"visitor_name":"A"})"), {}, "");
  EXPECT_TRUE(is_error(post_401, 401));
  EXPECT_EQ(total_count(get("/leads")), 0);
}

TEST_F(AuthTest, SchemeWordIsCaseInsensitive) {
  for (const char* scheme : {"Bearer", "bearer", "BEARER", "bEaReR"}) {
    SCOPED_TRACE(scheme);
    EXPECT_STATUS(get_with(std::string(scheme) + " " + ws_.rw.key), 200u);
  }
}

TEST_F(AuthTest, RevokedKeyIs401OnTheVeryNextRequest) {
  ASSERT_STATUS(get("/leads"), 200u);
  ASSERT_STATUS(post("/leads", json::object{{"visitor_name", "A"}}), 201u);
  revoke_key(ws_.rw.id);
  HttpResponse r = get("/leads");
  EXPECT_TRUE(is_error(r, 401));
  EXPECT_TRUE(has_rate_limit_headers(r, false));
  EXPECT_TRUE(is_error(post("/leads", json::object{{"visitor_name", "B"}}), 401));
  // Other keys of the workspace are unaffected.
  HttpResponse ro = get("/leads", ws_ro().key);
  EXPECT_STATUS(ro, 200u);
  EXPECT_EQ(total_count(ro), 1);
}

TEST_F(AuthTest, RevocationReachesAServerRunningInAnotherProcess) {
  ServerOptions options;
  options.db_url = server().db_url();
  options.extra_args = {"--rate-limit", "1000000/60s"};
  ServerProcess second(options);
  HttpClient other(second.host(), second.port());
  Headers auth = {{"Authorization", "Bearer " + ws_.rw.key}};
  ASSERT_STATUS(other.request("GET", std::string(kBase) + "/leads", std::nullopt, auth), 200u);
  ASSERT_STATUS(get("/leads"), 200u);
  revoke_key(ws_.rw.id);
  EXPECT_TRUE(
      is_error(other.request("GET", std::string(kBase) + "/leads", std::nullopt, auth), 401));
  EXPECT_TRUE(is_error(get("/leads"), 401));
}

TEST_F(AuthTest, ReadOnlyKeyGets403OnEveryWrite) {
  std::string lead = str(create_lead({{"visitor_name", "A"}}).at("id"));
  std::string contact = str(create_contact({{"first_name", "A"}}).at("id"));
  import_lines(ws_.id, {conversation_line({{"first_name", "V"}}, {}, timestamp_from_now(-1000ms))});
  std::string conv = conversation_ids().at(0);
  const std::string ro = ws_ro().key;
  std::vector<HttpResponse> writes = {
      post("/leads", json::object{{"visitor_name", "B"}}, ro),
      patch("/leads?id=" + lead, json::object{{"need_summary", "x"}}, ro),
      del("/leads?id=" + lead, ro),
      post("/contacts", json::object{{"first_name", "B"}}, ro),
      patch("/contacts?id=" + contact, json::object{{"last_name", "x"}}, ro),
      del("/contacts?id=" + contact, ro),
      patch("/conversations?id=" + conv, json::object{{"status", "archived"}}, ro),
  };
  for (const auto& r : writes) {
    EXPECT_TRUE(is_error(r, 403));
    EXPECT_TRUE(has_rate_limit_headers(r, true));
  }
  for (const std::string& path :
       {std::string("/leads"), "/leads?id=" + lead, std::string("/contacts"),
        "/contacts?id=" + contact, std::string("/conversations"), "/conversations?id=" + conv}) {
    SCOPED_TRACE(path);
    EXPECT_STATUS(get(path, ro), 200u);
  }
  EXPECT_EQ(total_count(get("/leads")), 1);
  EXPECT_EQ(str(get_one("leads", lead).at("need_summary")), "");
  EXPECT_EQ(total_count(get("/contacts")), 2);  // Ada plus the conversation's visitor
  EXPECT_EQ(get_one("conversations", conv).at("conversation").as_object().at("status"), "open");
}

TEST_F(AuthTest, WriteOnlyKeyGets403OnEveryRead) {
  const std::string wo = ws_wo().key;
  HttpResponse created = post("/leads", json::object{{"visitor_name", "A"}}, wo);
  ASSERT_STATUS(created, 201u);
  std::string lead = str(created.data().as_object().at("id"));
  EXPECT_STATUS(patch("/leads?id=" + lead, json::object{{"need_summary", "x"}}, wo), 200u);
  EXPECT_STATUS(post("/contacts", json::object{{"first_name", "A"}}, wo), 201u);
  for (const std::string& path : {std::string("/leads"), "/leads?id=" + lead,
                                  std::string("/contacts"), std::string("/conversations")}) {
    SCOPED_TRACE(path);
    HttpResponse r = get(path, wo);
    EXPECT_TRUE(is_error(r, 403));
    EXPECT_TRUE(has_rate_limit_headers(r, true));
  }
  EXPECT_STATUS(del("/leads?id=" + lead, wo), 200u);
}

TEST_F(AuthTest, IpWhitelistAllowsListedAddressesAndRangesOnly) {
  struct Case {
    std::vector<std::string> allow;
    bool allowed;
  };
  const std::vector<Case> cases = {
      {{"127.0.0.1"}, true},
      {{"127.0.0.0/8"}, true},
      {{"127.0.0.0/31"}, true},
      {{"0.0.0.0/0"}, true},
      {{"10.0.0.1", "127.0.0.1"}, true},
      {{"2001:db8::1", "127.0.0.1/32"}, true},
      {{"10.0.0.1"}, false},
      {{"10.0.0.0/8"}, false},
      {{"127.0.0.2"}, false},
      {{"127.0.0.2/31"}, false},
      {{"::1"}, false},
      {{"2001:db8::/32"}, false},
  };
  for (const auto& c : cases) {
    std::string label;
    for (const auto& a : c.allow) label += a + " ";
    SCOPED_TRACE(label);
    json::object k = create_key(ws_.id, "read,write", c.allow);
    EXPECT_EQ(k.at("allowed_ips"), json::value(json::value_from(c.allow)));
    HttpResponse r = get("/leads", str(k.at("key")));
    if (c.allowed) {
      EXPECT_STATUS(r, 200u);
    } else {
      EXPECT_TRUE(is_error(r, 403));
      EXPECT_TRUE(has_rate_limit_headers(r, false));
      EXPECT_TRUE(
          is_error(post("/leads", json::object{{"visitor_name", "A"}}, str(k.at("key"))), 403));
    }
  }
  EXPECT_EQ(total_count(get("/leads")), 0);
}

TEST_F(AuthTest, XForwardedForIsIgnoredWithoutTrustedProxies) {
  std::string only_remote = str(create_key(ws_.id, "read", {"10.0.0.5"}).at("key"));
  std::string only_local = str(create_key(ws_.id, "read", {"127.0.0.1"}).at("key"));
  EXPECT_TRUE(is_error(
      get_with("Bearer " + only_remote, "/leads", {{"X-Forwarded-For", "10.0.0.5"}}), 403));
  EXPECT_STATUS(get_with("Bearer " + only_local, "/leads", {{"X-Forwarded-For", "10.0.0.6"}}),
                200u);
}

TEST_F(AuthTest, CheckOrderAuthenticationBeforeIpBeforeScopeBeforeValidation) {
  // 401 before anything else.
  EXPECT_TRUE(is_error(send("POST", "/leads", std::string("not json"), {}, "fc_live_nope"), 401));
  EXPECT_TRUE(is_error(get("/leads?limit=0", "fc_live_nope"), 401));
  EXPECT_TRUE(is_error(get("/leads?id=" + kAbsentId, "fc_live_nope"), 401));

  // A revoked key with a non-matching whitelist: 401, not 403.
  json::object remote_rw = create_key(ws_.id, "read,write", {"10.0.0.1"});
  revoke_key(str(remote_rw.at("id")));
  EXPECT_TRUE(is_error(get("/leads", str(remote_rw.at("key"))), 401));

  // IP 403 before scope 403 and before 400: a read-only key from a wrong address writing
  // garbage gets the IP 403, which carries no rate-limit headers (a scope 403 would).
  std::string remote_ro = str(create_key(ws_.id, "read", {"10.0.0.1"}).at("key"));
  HttpResponse ip = send("POST", "/leads", std::string("not json"), {}, remote_ro);
  EXPECT_TRUE(is_error(ip, 403));
  EXPECT_TRUE(has_rate_limit_headers(ip, false));
  HttpResponse ip_bad_query = get("/leads?limit=0", remote_ro);
  EXPECT_TRUE(is_error(ip_bad_query, 403));
  EXPECT_TRUE(has_rate_limit_headers(ip_bad_query, false));

  // Scope 403 before 400.
  HttpResponse scope = send("POST", "/leads", std::string("not json"), {}, ws_ro().key);
  EXPECT_TRUE(is_error(scope, 403));
  EXPECT_TRUE(has_rate_limit_headers(scope, true));
  EXPECT_TRUE(is_error(patch("/leads", json::object{{"bogus", 1}}, ws_ro().key), 403));
  EXPECT_TRUE(is_error(del("/leads?id=not-a-uuid", ws_ro().key), 403));
  EXPECT_TRUE(is_error(get("/leads?limit=0&sort=bogus", ws_wo().key), 403));
  EXPECT_TRUE(is_error(get("/leads?id=" + kAbsentId, ws_wo().key), 403));
}

// A server that trusts X-Forwarded-For from loopback and from 10.9.0.0/16.
class TrustedProxyTest : public ApiTest {
 public:
  static void SetUpTestSuite() {
    start_suite_server({"--rate-limit", "1000000/60s", "--trust-proxy", "127.0.0.0/8,10.9.0.0/16"});
  }
};

TEST_F(TrustedProxyTest, ClientAddressIsTakenFromXForwardedFor) {
  struct Case {
    std::string xff;
    std::string allow;
    bool allowed;
  };
  const std::vector<Case> cases = {
      {"10.0.0.5", "10.0.0.5", true},
      {"10.0.0.5", "10.0.0.6", false},
      {"10.0.0.5", "127.0.0.1", false},
      {"10.0.0.5, 127.0.0.1", "10.0.0.5", true},
      {"10.0.0.6, 10.0.0.5", "10.0.0.5", true},  // right-most untrusted entry
      {"10.0.0.6, 10.0.0.5", "10.0.0.6", false},
      {"10.0.0.5, 10.9.1.1", "10.0.0.5", true},  // 10.9.1.1 is a trusted proxy
      {"10.0.0.5,10.9.1.1,127.0.0.1", "10.0.0.0/24", true},
      {"127.0.0.5, 127.0.0.9", "127.0.0.5", true},  // all trusted: the left-most
      {"127.0.0.5, 127.0.0.9", "127.0.0.9", false},
      {"10.0.0.5, garbage", "127.0.0.1", true},  // invalid entry reached: header ignored
      {"10.0.0.5, garbage", "10.0.0.5", false},
      {"garbage, 10.0.0.5", "10.0.0.5", true},  // not reached
      {"::ffff:10.0.0.5", "10.0.0.5", true},    // IPv4-mapped IPv6
      {"2001:db8::7", "2001:db8::/32", true},
      {"2001:db8::7", "2001:db9::/32", false},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE("X-Forwarded-For: " + c.xff + " / allow " + c.allow);
    std::string key = str(create_key(ws_.id, "read", {c.allow}).at("key"));
    HttpResponse r =
        client().request("GET", api_path("/leads"), std::nullopt,
                         {{"Authorization", "Bearer " + key}, {"X-Forwarded-For", c.xff}});
    if (c.allowed) {
      EXPECT_STATUS(r, 200u);
    } else {
      EXPECT_TRUE(is_error(r, 403));
    }
  }
}

TEST_F(TrustedProxyTest, WithoutXForwardedForThePeerIsTheClient) {
  std::string local = str(create_key(ws_.id, "read", {"127.0.0.1"}).at("key"));
  std::string remote = str(create_key(ws_.id, "read", {"10.0.0.5"}).at("key"));
  EXPECT_STATUS(get("/leads", local), 200u);
  EXPECT_TRUE(is_error(get("/leads", remote), 403));
}

}  // namespace
}  // namespace leadline_test
