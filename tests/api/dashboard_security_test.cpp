// The dashboard's security contract (docs/design.md "The dashboard", docs/api.md "The
// dashboard"), black-box against the real binary: the session cookie's attributes, CSRF and
// cross-site refusals, sign-out, the sign-in throttle that tells nothing about which addresses
// exist, workspace isolation, API keys and session cookies never crossing over, the security
// headers, revocation from the dashboard, and the test event. Session expiry has a suite of its
// own with short lifetimes.

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <thread>

#include "support/dashboard_session.hpp"
#include "support/webhook_fixture.hpp"

namespace leadline_test {
namespace {

const std::string kPassword = "correct horse battery staple";

class DashboardTest : public WebhookApiTest {
 protected:
  std::unique_ptr<DashboardSession> browser() {
    return std::make_unique<DashboardSession>(server().host(), server().port());
  }

  // An address no other test of this process uses (the throttle counts per address).
  static std::string address(const std::string& who) {
    static int counter = 0;
    return who + "." + std::to_string(++counter) + "@example.com";
  }

  // A new user of `workspace` with kPassword, signed in in a browser of its own.
  std::unique_ptr<DashboardSession> signed_in(const std::string& workspace,
                                              const std::string& who = "user") {
    const std::string email = address(who);
    add_dashboard_user(server().db_url(), workspace, email, kPassword);
    auto b = browser();
    const HttpResponse r = b->sign_in(email, kPassword);
    if (r.status != 200) throw std::runtime_error("signing in failed\n" + r.describe());
    return b;
  }
};

// The suite's server trusts a proxy on loopback, so a request may say it came over HTTPS.
class DashboardSecurityTest : public DashboardTest {
 public:
  static void SetUpTestSuite() {
    auto args = webhook_serve_args();
    args.insert(args.end(), {"--trust-proxy", "127.0.0.1/32"});
    start_webhook_suite_server(std::move(args));
  }
};

::testing::AssertionResult is_session_id(const std::string& value) {
  const bool hex = std::all_of(value.begin(), value.end(),
                               [](char c) { return std::isdigit(c) || (c >= 'a' && c <= 'f'); });
  if (value.size() == 64 && hex) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "not 64 lower-case hex digits: '" << value << "'";
}

// The one session cookie a response sets.
SetCookie the_session_cookie(const HttpResponse& r) {
  const auto cookies = session_cookies_set(r);
  if (cookies.size() != 1) {
    throw std::runtime_error("expected exactly one Set-Cookie of the session\n" + r.describe());
  }
  return cookies.front();
}

// A cookie a browser keeps only for /dashboard, never shows to scripts nor sends from another
// site; Secure exactly when `secure`.
::testing::AssertionResult has_session_attributes(const SetCookie& c, bool secure) {
  auto fail = [&](const std::string& what) {
    return ::testing::AssertionFailure() << what << " (cookie " << c.name << ")";
  };
  if (!c.has("HttpOnly") || !c.attribute("HttpOnly").empty()) return fail("no HttpOnly");
  if (c.attribute("SameSite") != "Strict") return fail("SameSite is not Strict");
  if (c.attribute("Path") != "/dashboard") return fail("Path is not /dashboard");
  if (c.has("Domain")) return fail("a Domain attribute widens it to other hosts");
  if (c.has("Secure") != secure) return fail(secure ? "no Secure" : "Secure over plain HTTP");
  return ::testing::AssertionSuccess();
}

// The answer of a refused state change: 403 in the error envelope.
::testing::AssertionResult is_refused(const HttpResponse& r) {
  return is_error(r, 403);
}

json::object key_request(const std::string& name) {
  return {{"name", name}, {"scopes", json::array{"read"}}, {"allowed_ips", json::array{}}};
}

std::set<std::string> id_set(const json::value& items) {
  std::set<std::string> out;
  for (const auto& item : items.as_array()) out.insert(str(item.as_object().at("id")));
  return out;
}

// --- The session cookie ---

TEST_F(DashboardSecurityTest, SignInSetsAStrictHttpOnlyCookieOfA256BitIdOverPlainHttp) {
  const std::string email = address("cookie");
  const json::object user = add_dashboard_user(server().db_url(), ws_.id, email, kPassword, "Ada");
  auto b = browser();
  const HttpResponse r = b->sign_in(email, kPassword);
  ASSERT_STATUS(r, 200u);
  ASSERT_TRUE(is_single_envelope(r));
  const SetCookie cookie = the_session_cookie(r);
  EXPECT_TRUE(has_session_attributes(cookie, false));
  EXPECT_TRUE(is_session_id(cookie.value));

  const json::object& data = r.data().as_object();
  EXPECT_EQ(keys_of(data), key_set({"user", "csrf_token"}));
  EXPECT_EQ(
      data.at("user"),
      (json::object{
          {"id", user.at("id")}, {"email", email}, {"name", "Ada"}, {"workspace_id", ws_.id}}));
  const std::string csrf = str(data.at("csrf_token"));
  EXPECT_FALSE(csrf.empty());
  EXPECT_EQ(csrf.find(cookie.value), std::string::npos) << "the token reveals the session id";

  const HttpResponse session = b->get("session");
  ASSERT_STATUS(session, 200u);
  EXPECT_EQ(session.data(), r.data());
  EXPECT_TRUE(session_cookies_set(session).empty()) << "only sign-in issues an id";
}

TEST_F(DashboardSecurityTest, EverySignInIssuesANewSessionId) {
  const std::string email = address("again");
  add_dashboard_user(server().db_url(), ws_.id, email, kPassword);
  std::set<std::string> ids;
  for (int i = 0; i < 3; ++i) {
    // A fresh browser each time, and once a browser that is signed in already.
    auto b = browser();
    ASSERT_STATUS(b->sign_in(email, kPassword), 200u);
    ids.insert(b->cookie());
    const HttpResponse again = b->sign_in(email, kPassword);
    ASSERT_STATUS(again, 200u);
    ids.insert(the_session_cookie(again).value);
  }
  EXPECT_EQ(ids.size(), 6u);
}

TEST_F(DashboardSecurityTest, BehindATrustedProxyOverHttpsTheCookieIsSecure) {
  const std::string email = address("proxied");
  add_dashboard_user(server().db_url(), ws_.id, email, kPassword);
  auto b = browser();
  const HttpResponse https = b->sign_in(email, kPassword, {{"X-Forwarded-Proto", "https"}});
  ASSERT_STATUS(https, 200u);
  EXPECT_TRUE(has_session_attributes(the_session_cookie(https), true));
  // Signing out over HTTPS clears it with the same attributes.
  const HttpResponse out = b->sign_out({{"X-Forwarded-Proto", "https"}});
  ASSERT_STATUS(out, 200u);
  const SetCookie cleared = the_session_cookie(out);
  EXPECT_TRUE(has_session_attributes(cleared, true));

  auto plain = browser();
  const HttpResponse http = plain->sign_in(email, kPassword, {{"X-Forwarded-Proto", "http"}});
  ASSERT_STATUS(http, 200u);
  EXPECT_TRUE(has_session_attributes(the_session_cookie(http), false));
}

TEST_F(DashboardSecurityTest, AnUntrustedPeerCannotClaimHttps) {
  // The same database, served without --trust-proxy: X-Forwarded-Proto is anybody's word.
  ServerOptions options;
  options.db_url = server().db_url();
  options.extra_args = {"--rate-limit", "1000000/60s"};
  ServerProcess untrusting(options);
  const std::string email = address("untrusted");
  add_dashboard_user(server().db_url(), ws_.id, email, kPassword);
  DashboardSession b(untrusting.host(), untrusting.port());
  const HttpResponse r = b.sign_in(email, kPassword, {{"X-Forwarded-Proto", "https"}});
  ASSERT_STATUS(r, 200u);
  EXPECT_TRUE(has_session_attributes(the_session_cookie(r), false));
}

// --- CSRF and cross-site requests ---

TEST_F(DashboardSecurityTest, AStateChangeWithoutTheRightCsrfTokenIs403) {
  auto b = signed_in(ws_.id);
  auto other = signed_in(ws_.id, "other");
  const std::string token = b->csrf_token();
  std::string altered = token;
  altered.back() = altered.back() == 'a' ? 'b' : 'a';
  const std::vector<std::pair<std::string, Headers>> wrong = {
      {"no token", {}},
      {"empty token", {{"X-CSRF-Token", ""}}},
      {"altered token", {{"X-CSRF-Token", altered}}},
      {"another session's token", {{"X-CSRF-Token", other->csrf_token()}}},
      {"the session id as token", {{"X-CSRF-Token", b->cookie()}}},
  };
  for (const auto& [what, headers] : wrong) {
    SCOPED_TRACE(what);
    EXPECT_TRUE(is_refused(b->api("POST", "keys", key_request(what), headers, Csrf::kNone)));
    EXPECT_TRUE(is_refused(b->api("DELETE", "session", std::nullopt, headers, Csrf::kNone)));
  }
  // None of them created a key or ended the session.
  const HttpResponse keys = b->get("keys");
  ASSERT_STATUS(keys, 200u);
  EXPECT_EQ(keys.data().as_array().size(), 1u) << keys.describe();  // the fixture's one
  EXPECT_STATUS(b->get("session"), 200u);

  EXPECT_STATUS(b->post("keys", key_request("with the token")), 201u);
}

TEST_F(DashboardSecurityTest, ACrossSiteRequestIs403EvenWithTheRightToken) {
  auto b = signed_in(ws_.id);
  const std::string port = std::to_string(server().port());
  const std::vector<std::pair<std::string, Headers>> cross = {
      {"Sec-Fetch-Site cross-site", {{"Sec-Fetch-Site", "cross-site"}}},
      {"another origin", {{"Origin", "http://evil.example"}}},
      {"another port", {{"Origin", "http://127.0.0.1:" + std::to_string(server().port() + 1)}}},
      {"another scheme", {{"Origin", "https://127.0.0.1:" + port}}},
      {"a same-origin Origin but cross-site",
       {{"Origin", b->origin()}, {"Sec-Fetch-Site", "cross-site"}}},
  };
  for (const auto& [what, headers] : cross) {
    SCOPED_TRACE(what);
    EXPECT_TRUE(is_refused(b->post("keys", key_request(what), headers)));
    EXPECT_TRUE(is_refused(b->api("DELETE", "session", std::nullopt, headers)));
  }
  EXPECT_EQ(b->get("keys").data().as_array().size(), 1u);  // the fixture's one
  EXPECT_STATUS(b->get("session"), 200u);

  // Names no origin, or this one: allowed (with the token).
  const std::vector<std::pair<std::string, Headers>> same = {
      {"Origin null", {{"Origin", "null"}}},
      {"same origin", {{"Origin", b->origin()}}},
      {"same origin, Sec-Fetch-Site same-origin",
       {{"Origin", b->origin()}, {"Sec-Fetch-Site", "same-origin"}}},
      {"no Origin", {}},
  };
  for (const auto& [what, headers] : same) {
    SCOPED_TRACE(what);
    EXPECT_STATUS(b->post("keys", key_request(what), headers), 201u);
  }
  EXPECT_EQ(b->get("keys").data().as_array().size(), 5u);
}

TEST_F(DashboardSecurityTest, ASignInStartedByAnotherSiteIsRefused) {
  const std::string email = address("login-csrf");
  add_dashboard_user(server().db_url(), ws_.id, email, kPassword);
  for (const Headers& headers :
       {Headers{{"Sec-Fetch-Site", "cross-site"}}, Headers{{"Origin", "http://evil.example"}}}) {
    auto b = browser();
    const HttpResponse r = b->sign_in(email, kPassword, headers);
    EXPECT_TRUE(is_refused(r));
    EXPECT_TRUE(session_cookies_set(r).empty()) << r.describe();
  }
}

// --- Signing out ---

TEST_F(DashboardSecurityTest, SignOutEndsTheSessionAndClearsTheCookie) {
  auto b = signed_in(ws_.id);
  const std::string old = b->cookie();
  const HttpResponse out = b->sign_out();
  ASSERT_STATUS(out, 200u);
  ASSERT_TRUE(is_single_envelope(out));
  EXPECT_EQ(out.data(), (json::object{{"signed_out", true}}));
  const SetCookie cleared = the_session_cookie(out);
  EXPECT_TRUE(cleared.value.empty());
  EXPECT_TRUE(cleared.attribute("Max-Age") == "0" || cleared.has("Expires")) << out.describe();
  EXPECT_EQ(cleared.attribute("Path"), "/dashboard");

  // The old cookie, replayed, opens nothing.
  b->use_cookie(old);
  EXPECT_TRUE(is_error(b->get("session"), 401));
  EXPECT_TRUE(is_error(b->get("keys"), 401));
  EXPECT_TRUE(is_error(b->post("keys", key_request("after")), 401));
  EXPECT_TRUE(is_error(b->sign_out(), 401));
  const HttpResponse page = b->page("/dashboard/keys");
  EXPECT_STATUS(page, 303u);
}

TEST_F(DashboardSecurityTest, SigningInAgainEndsTheSessionTheBrowserHad) {
  const std::string email = address("switch");
  add_dashboard_user(server().db_url(), ws_.id, email, kPassword);
  auto b = browser();
  ASSERT_STATUS(b->sign_in(email, kPassword), 200u);
  const std::string first = b->cookie();
  // The sign-in page of a signed-in browser leads on to the keys.
  const HttpResponse page = b->page("/dashboard/sign-in");
  EXPECT_STATUS(page, 303u);
  EXPECT_EQ(page.header("Location"), "/dashboard/keys");
  ASSERT_STATUS(b->sign_in(email, kPassword), 200u);
  EXPECT_NE(b->cookie(), first);
  EXPECT_STATUS(b->get("session"), 200u);
  b->use_cookie(first);
  EXPECT_TRUE(is_error(b->get("session"), 401));
}

TEST_F(DashboardSecurityTest, SignOutNeedsTheCsrfToken) {
  auto b = signed_in(ws_.id);
  EXPECT_TRUE(is_refused(b->api("DELETE", "session", std::nullopt, {}, Csrf::kNone)));
  EXPECT_STATUS(b->get("session"), 200u);
}

// --- The sign-in throttle ---

// Status, body and header names: what could tell one address from another.
::testing::AssertionResult same_answer(const HttpResponse& a, const HttpResponse& b) {
  auto names = [](const HttpResponse& r) {
    std::set<std::string> out;
    for (const auto& [name, value] : r.headers) {
      std::string n = name;
      std::transform(n.begin(), n.end(), n.begin(),
                     [](unsigned char c) { return std::tolower(c); });
      out.insert(n);
    }
    return out;
  };
  if (a.status == b.status && a.body == b.body && names(a) == names(b)) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "answers differ\n"
                                       << a.describe() << "\n---\n"
                                       << b.describe();
}

::testing::AssertionResult is_sign_in_failure(const HttpResponse& r) {
  if (auto e = is_error(r, 401); !e) return e;
  if (r.object().at("error") != kSignInFailure) {
    return ::testing::AssertionFailure() << "the sentence is not '" << kSignInFailure << "'\n"
                                         << r.describe();
  }
  return ::testing::AssertionSuccess();
}

int retry_after_seconds(const HttpResponse& r) {
  const std::string v = r.header("Retry-After");
  if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos) return -1;
  return std::stoi(v);
}

TEST_F(DashboardSecurityTest, FailuresSayOneSentenceWhateverFailed) {
  const std::string email = address("known");
  add_dashboard_user(server().db_url(), ws_.id, email, kPassword);
  // A user whose setup link is unused has no password yet.
  const std::string pending = address("pending");
  cli_json({"users", "add", "--workspace", ws_.id, "--email", pending, "--name", "P"});

  auto b = browser();
  const HttpResponse wrong = b->sign_in(email, kPassword + "!");
  const HttpResponse unknown = b->sign_in(address("nobody"), kPassword);
  const HttpResponse no_password = b->sign_in(pending, kPassword);
  const HttpResponse empty = b->sign_in(address("empty"), "");
  for (const HttpResponse* r : {&wrong, &unknown, &no_password}) {
    EXPECT_TRUE(is_sign_in_failure(*r));
    EXPECT_TRUE(session_cookies_set(*r).empty());
  }
  EXPECT_TRUE(same_answer(wrong, unknown));
  EXPECT_TRUE(same_answer(wrong, no_password));
  EXPECT_TRUE(is_sign_in_failure(empty) || is_error(empty, 400));
}

TEST_F(DashboardSecurityTest, AfterFiveFailuresOneAddressWaitsAndAnUnknownOneAnswersAlike) {
  const std::string known = address("throttled");
  const std::string unknown = address("ghost");
  const std::string bystander = address("bystander");
  add_dashboard_user(server().db_url(), ws_.id, known, kPassword);
  add_dashboard_user(server().db_url(), ws_.id, bystander, kPassword);
  auto b = browser();

  for (int i = 1; i <= 5; ++i) {
    SCOPED_TRACE("failure " + std::to_string(i));
    // The count is per address, whatever its case.
    std::string k = known;
    if (i % 2 == 1) {
      std::transform(k.begin(), k.end(), k.begin(),
                     [](unsigned char c) { return std::toupper(c); });
    }
    const HttpResponse a = b->sign_in(k, "wrong password " + std::to_string(i));
    const HttpResponse u = b->sign_in(unknown, "wrong password " + std::to_string(i));
    EXPECT_TRUE(is_sign_in_failure(a));
    EXPECT_TRUE(same_answer(a, u));
  }

  // The 6th attempt waits, even with the right password, and so does the unknown address.
  const HttpResponse a6 = b->sign_in(known, kPassword);
  const HttpResponse u6 = b->sign_in(unknown, kPassword);
  EXPECT_TRUE(is_error(a6, 429)) << a6.describe();
  EXPECT_TRUE(session_cookies_set(a6).empty());
  const int wait = retry_after_seconds(a6);
  EXPECT_GE(wait, 1) << a6.describe();
  EXPECT_LE(wait, 2) << a6.describe();
  EXPECT_TRUE(is_error(u6, 429)) << u6.describe();
  EXPECT_GE(retry_after_seconds(u6), 1) << u6.describe();
  EXPECT_EQ(a6.body, u6.body);

  // Another account is not affected.
  EXPECT_STATUS(browser()->sign_in(bystander, kPassword), 200u);

  // Once the wait is over the right password opens a session.
  std::this_thread::sleep_for(std::chrono::milliseconds(std::max(wait, 1) * 1000 + 300));
  EXPECT_STATUS(b->sign_in(known, kPassword), 200u);
}

// --- Isolation ---

TEST_F(DashboardSecurityTest, AUserSeesAndChangesOnlyTheOwnWorkspace) {
  WebhookReceiver receiver;
  const WorkspaceKeys other = make_workspace("B");
  auto a = signed_in(ws_.id, "a");
  auto b = signed_in(other.id, "b");
  const std::set<std::string> own_keys = {ws_.rw.id, ws_ro().id, ws_wo().id};

  // Keys.
  const HttpResponse keys = a->get("keys");
  ASSERT_STATUS(keys, 200u);
  EXPECT_EQ(id_set(keys.data()), own_keys);
  EXPECT_TRUE(is_error(a->post("keys/revoke?id=" + other.rw.id), 404));
  EXPECT_STATUS(get("/leads", other.rw.key), 200u);

  // Webhooks: B's endpoint is none of A's business.
  const json::object theirs = create_webhook_to(receiver.url(hook_path("b")), {"*"}, other.rw.key);
  const std::string hook = str(theirs.at("id"));
  const HttpResponse hooks = a->get("webhooks");
  ASSERT_STATUS(hooks, 200u);
  EXPECT_TRUE(hooks.data().as_array().empty()) << hooks.describe();
  EXPECT_TRUE(is_error(a->get("webhooks?id=" + hook), 404));
  EXPECT_TRUE(
      is_error(a->api("PATCH", "webhooks?id=" + hook, json::object{{"enabled", false}}), 404));
  EXPECT_TRUE(is_error(a->post("webhooks/rotate-secret?id=" + hook), 404));
  EXPECT_TRUE(is_error(a->post("webhooks/test?id=" + hook), 404));
  EXPECT_TRUE(is_error(a->api("DELETE", "webhooks?id=" + hook), 404));
  const json::object unchanged = get_webhook(hook, other.rw.key);
  EXPECT_EQ(unchanged.at("enabled"), true);
  EXPECT_EQ(unchanged.at("updated_at"), theirs.at("updated_at"));

  // Deliveries and events: B's lead, A's lead.
  create_lead({{"visitor_name", "B's lead"}}, other.rw.key);
  create_lead({{"visitor_name", "A's lead"}});
  const json::object their_event = last_event("lead.created", other.rw.key);
  const std::string their_event_id = str(their_event.at("id"));
  const std::string delivery = str(delivery_of(hook, their_event_id, other.rw.key).at("id"));
  const std::string my_event_id = str(last_event("lead.created").at("id"));

  const HttpResponse listed = a->get("webhook-deliveries");
  ASSERT_STATUS(listed, 200u);
  EXPECT_TRUE(listed.data().as_array().empty()) << listed.describe();
  EXPECT_TRUE(a->get("webhook-deliveries?webhook_id=" + hook).data().as_array().empty());
  EXPECT_TRUE(is_error(a->get("webhook-deliveries?id=" + delivery), 404));
  EXPECT_TRUE(is_error(a->post("webhook-deliveries/retry?id=" + delivery), 404));

  const HttpResponse feed = a->get("events");
  ASSERT_STATUS(feed, 200u);
  EXPECT_EQ(id_set(feed.data()), (std::set<std::string>{my_event_id}));
  EXPECT_TRUE(is_error(a->get("events?id=" + their_event_id), 404));
  EXPECT_TRUE(is_error(a->get("events?after=" + their_event_id), 400));

  // Usage: of the own workspace and keys only.
  EXPECT_STATUS(a->get("usage"), 200u);
  EXPECT_STATUS(a->get("usage?key=" + ws_.rw.id), 200u);
  EXPECT_TRUE(is_error(a->get("usage?key=" + other.rw.id), 404));

  // And B sees its own.
  EXPECT_EQ(id_set(b->get("webhooks").data()), (std::set<std::string>{hook}));
  EXPECT_EQ(id_set(b->get("keys").data()),
            (std::set<std::string>{other.rw.id, other.ro.id, other.wo.id}));
}

// --- API keys and session cookies do not cross ---

Headers bearer_header(const std::string& key) {
  return {{"Authorization", std::string("Bearer ").append(key)}};
}

TEST_F(DashboardSecurityTest, TheDashboardRefusesApiKeysAndTheApiRefusesSessionCookies) {
  auto a = signed_in(ws_.id);
  const Headers bearer = bearer_header(ws_.rw.key);
  HttpClient& c = client();
  EXPECT_TRUE(is_error(c.request("GET", "/dashboard/api/keys", std::nullopt, bearer), 401));
  EXPECT_TRUE(is_error(c.request("GET", "/dashboard/api/session", std::nullopt, bearer), 401));
  EXPECT_TRUE(is_error(
      c.request("POST", "/dashboard/api/keys", json::serialize(key_request("by key")), bearer),
      401));
  const HttpResponse page = c.request("GET", "/dashboard/keys", std::nullopt, bearer);
  EXPECT_STATUS(page, 303u);

  // With a cookie the Authorization header is ignored: another workspace's key changes nothing.
  const WorkspaceKeys other = make_workspace("B");
  const std::set<std::string> own_keys = {ws_.rw.id, ws_ro().id, ws_wo().id};
  const HttpResponse mine = a->get("keys", bearer_header(other.rw.key));
  ASSERT_STATUS(mine, 200u);
  EXPECT_EQ(id_set(mine.data()), own_keys);

  const Headers cookie = {
      {"Cookie", std::string(kSessionCookieName).append("=").append(a->cookie())}};
  const std::string leads = std::string(kBase).append("/leads");
  EXPECT_TRUE(is_error(c.request("GET", leads, std::nullopt, cookie), 401));
  EXPECT_TRUE(
      is_error(c.request("POST", leads,
                         json::serialize(json::object{{"visitor_name", "By cookie"}}), cookie),
               401));
  EXPECT_EQ(total_count(get("/leads")), 0);
}

// --- Security headers and pages ---

// The directives of a Content-Security-Policy header, each with its sources.
std::map<std::string, std::vector<std::string>> csp_directives(const HttpResponse& r) {
  std::map<std::string, std::vector<std::string>> directives;
  std::istringstream parts(r.header("Content-Security-Policy"));
  for (std::string part; std::getline(parts, part, ';');) {
    std::istringstream words(part);
    std::string name;
    if (!(words >> name)) continue;
    auto& sources = directives[name];
    for (std::string source; words >> source;) sources.push_back(source);
  }
  return directives;
}

// A CSP that frames nowhere and loads from this origin alone, nothing inline: no host source,
// no scheme source (data:, https:, …), no wildcard, no 'unsafe-…'.
::testing::AssertionResult csp_allows_only_this_origin(const HttpResponse& r) {
  auto fail = [&](const std::string& what) {
    return ::testing::AssertionFailure()
           << what << "\nContent-Security-Policy: " << r.header("Content-Security-Policy");
  };
  auto directives = csp_directives(r);
  if (directives.empty()) return fail("no Content-Security-Policy");
  if (directives["default-src"] != std::vector<std::string>{"'self'"}) {
    return fail("default-src is not 'self' alone");
  }
  if (directives["frame-ancestors"] != std::vector<std::string>{"'none'"}) {
    return fail("frame-ancestors is not 'none'");
  }
  for (const auto& [name, sources] : directives) {
    for (const auto& source : sources) {
      if (source != "'self'" && source != "'none'") {
        return fail("directive " + name + " allows " + source);
      }
    }
  }
  return ::testing::AssertionSuccess();
}

// Framing refused by the CSP, nosniff, a referrer policy that tells other sites nothing, and no
// caching of pages and JSON.
::testing::AssertionResult has_security_headers(const HttpResponse& r, bool no_store = true) {
  auto fail = [&](const std::string& what) {
    return ::testing::AssertionFailure() << what << '\n' << r.describe();
  };
  auto directives = csp_directives(r);
  if (directives["frame-ancestors"] != std::vector<std::string>{"'none'"}) {
    return fail("no Content-Security-Policy with frame-ancestors 'none'");
  }
  if (!directives.contains("default-src")) return fail("the CSP has no default-src");
  if (r.header("X-Content-Type-Options") != "nosniff") return fail("no nosniff");
  const std::string referrer = r.header("Referrer-Policy");
  if (referrer != "same-origin" && referrer != "no-referrer") return fail("Referrer-Policy");
  if (no_store && r.header("Cache-Control").find("no-store") == std::string::npos) {
    return fail("Cache-Control is not no-store");
  }
  return ::testing::AssertionSuccess();
}

bool is_html(const HttpResponse& r) {
  return r.header("Content-Type").rfind("text/html", 0) == 0;
}

// Every src="…" and href="…" of a page.
std::vector<std::string> references(const std::string& html) {
  std::vector<std::string> out;
  for (const std::string attribute : {"src=\"", "href=\""}) {
    for (std::size_t at = html.find(attribute); at != std::string::npos;
         at = html.find(attribute, at + 1)) {
      const std::size_t begin = at + attribute.size();
      out.push_back(html.substr(begin, html.find('"', begin) - begin));
    }
  }
  return out;
}

TEST_F(DashboardSecurityTest, PagesAndJsonCarryTheSecurityHeaders) {
  auto a = signed_in(ws_.id);
  auto anonymous = browser();

  const HttpResponse sign_in_page = anonymous->page("/dashboard/sign-in");
  ASSERT_STATUS(sign_in_page, 200u);
  EXPECT_TRUE(is_html(sign_in_page));
  EXPECT_TRUE(has_security_headers(sign_in_page));
  std::vector<std::string> refs = references(sign_in_page.body);
  for (const char* page :
       {"/dashboard/keys", "/dashboard/usage", "/dashboard/webhooks", "/dashboard/events"}) {
    SCOPED_TRACE(page);
    const HttpResponse r = a->page(page);
    ASSERT_STATUS(r, 200u);
    EXPECT_TRUE(is_html(r));
    EXPECT_TRUE(has_security_headers(r));
    for (auto& ref : references(r.body)) refs.push_back(std::move(ref));
  }

  // Everything a page loads is this server's own.
  EXPECT_FALSE(refs.empty());
  for (const auto& ref : std::set<std::string>(refs.begin(), refs.end())) {
    SCOPED_TRACE(ref);
    EXPECT_EQ(ref.find("//"), std::string::npos) << "another origin";
    if (ref.rfind("/dashboard/assets/", 0) == 0) {
      const HttpResponse asset = anonymous->page(ref);
      EXPECT_STATUS(asset, 200u);
      EXPECT_TRUE(has_security_headers(asset, false));
    }
  }

  const std::vector<HttpResponse> json_answers = {
      a->get("session"),
      a->get("keys"),
      anonymous->get("session"),
      anonymous->get("keys"),
      a->post("keys", key_request("with the token"), {}),
      a->api("POST", "keys", key_request("none"), {}, Csrf::kNone),
      a->get("nope")};
  const std::vector<unsigned> statuses = {200, 200, 401, 401, 201, 403, 404};
  for (std::size_t i = 0; i < json_answers.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_STATUS(json_answers[i], statuses[i]);
    EXPECT_TRUE(has_json_content_type(json_answers[i]));
    EXPECT_TRUE(has_security_headers(json_answers[i]));
  }
}

// docs/design.md pins the policy "default-src 'self'; frame-ancestors 'none'; base-uri 'none';
// form-action 'self'; object-src 'none'": this origin only, on pages, assets and JSON alike.
TEST_F(DashboardSecurityTest, TheContentSecurityPolicyAllowsThisOriginOnly) {
  auto a = signed_in(ws_.id);
  const HttpResponse page = a->page("/dashboard/keys");
  ASSERT_STATUS(page, 200u);
  EXPECT_TRUE(csp_allows_only_this_origin(page));
  const auto scripts = references(page.body);
  const auto asset = std::find_if(scripts.begin(), scripts.end(), [](const std::string& ref) {
    return ref.rfind("/dashboard/assets/", 0) == 0;
  });
  ASSERT_NE(asset, scripts.end()) << page.body;
  EXPECT_TRUE(csp_allows_only_this_origin(a->page(*asset)));
  EXPECT_TRUE(csp_allows_only_this_origin(a->get("keys")));
}

TEST_F(DashboardSecurityTest, PagesWithoutASessionRedirectToSignIn) {
  auto anonymous = browser();
  auto forged = browser();
  forged->use_cookie(std::string(64, 'a'));
  for (DashboardSession* b : {anonymous.get(), forged.get()}) {
    for (const char* page :
         {"/dashboard/keys", "/dashboard/usage", "/dashboard/webhooks", "/dashboard/events"}) {
      SCOPED_TRACE(page);
      const HttpResponse r = b->page(page);
      EXPECT_STATUS(r, 303u);
      const std::string location = r.header("Location");
      EXPECT_TRUE(location == "/dashboard/sign-in" ||
                  location == b->origin() + "/dashboard/sign-in")
          << r.describe();
      EXPECT_EQ(r.body.find("<html"), std::string::npos) << "a page shell leaked";
    }
    EXPECT_TRUE(is_error(b->get("keys"), 401));
  }
  const HttpResponse root = anonymous->page("/dashboard");
  EXPECT_STATUS(root, 303u);
  EXPECT_NE(root.header("Location").find("/dashboard/keys"), std::string::npos);
}

// --- Keys from the dashboard ---

TEST_F(DashboardSecurityTest, AKeyRevokedInTheDashboardIsRefusedOnTheVeryNextApiRequest) {
  auto a = signed_in(ws_.id);
  // A key created in the dashboard: shown once, usable at once.
  const HttpResponse created =
      a->post("keys", json::object{{"name", "ci"},
                                   {"scopes", json::array{"read", "write"}},
                                   {"allowed_ips", json::array{}}});
  ASSERT_STATUS(created, 201u);
  const std::string id = str(created.data().at("id"));
  const std::string key = str(created.data().at("key"));
  const HttpResponse listed_keys = a->get("keys");
  for (const auto& listed : listed_keys.data().as_array()) {
    EXPECT_FALSE(listed.as_object().contains("key")) << "a listed key shows its secret";
  }

  for (const std::string& revoked : {ws_.rw.id, id}) {
    SCOPED_TRACE(revoked);
    const std::string secret = revoked == id ? key : ws_.rw.key;
    ASSERT_STATUS(get("/leads", secret), 200u);
    const HttpResponse r = a->post("keys/revoke?id=" + revoked);
    ASSERT_STATUS(r, 200u);
    EXPECT_EQ(str(r.data().at("id")), revoked);
    EXPECT_TRUE(r.data().at("revoked_at").is_string()) << r.describe();
    EXPECT_TRUE(is_error(get("/leads", secret), 401));
  }
  EXPECT_STATUS(get("/leads", ws_ro().key), 200u);
}

// --- The test event ---

TEST_F(DashboardSecurityTest, TheTestEventReachesThatEndpointOnlySignedAndNeverTheFeed) {
  WebhookReceiver receiver;
  const std::string path = hook_path("target");
  const std::string sibling_path = hook_path("sibling");
  auto a = signed_in(ws_.id);
  // Subscribed to another type: the button sends regardless.
  const HttpResponse made =
      a->post("webhooks",
              json::object{{"url", receiver.url(path)}, {"events", json::array{"lead.deleted"}}});
  ASSERT_STATUS(made, 201u);
  const std::string target = str(made.data().at("id"));
  const std::string secret = str(made.data().at("secret"));
  const std::string sibling = str(create_webhook_to(receiver.url(sibling_path)).at("id"));

  EXPECT_TRUE(
      is_refused(a->api("POST", "webhooks/test?id=" + target, std::nullopt, {}, Csrf::kNone)));
  const HttpResponse sent = a->post("webhooks/test?id=" + target);
  ASSERT_STATUS(sent, 201u);
  ASSERT_TRUE(is_single_envelope(sent));
  const json::object& delivery = sent.data().as_object();
  EXPECT_EQ(keys_of(delivery), webhook_delivery_keys());
  EXPECT_EQ(str(delivery.at("webhook_id")), target);
  EXPECT_EQ(delivery.at("event_type"), "webhook.test");
  EXPECT_EQ(delivery.at("status"), "pending");
  const std::string event_id = str(delivery.at("event_id"));
  EXPECT_TRUE(is_uuid_v7(event_id));

  // One signed request, the envelope of every event with data {}.
  ASSERT_TRUE(receiver.wait_for(1, kDeliveryWait, path)) << receiver.describe();
  const ReceivedRequest request = receiver.requests(path).front();
  const auto body = parse_json(request.body);
  ASSERT_TRUE(body && body->is_object()) << request.body;
  const json::object& event = body->as_object();
  EXPECT_EQ(keys_of(event), key_set({"id", "type", "timestamp", "data"}));
  EXPECT_EQ(str(event.at("id")), event_id);
  EXPECT_EQ(event.at("type"), "webhook.test");
  EXPECT_EQ(event.at("data"), json::value(json::object{}));
  ASSERT_TRUE(event.at("timestamp").is_string());
  EXPECT_LT(std::abs(timestamp_millis(str(event.at("timestamp"))) - now_millis()), 60'000);
  EXPECT_TRUE(is_webhook_of(request, *body, {secret}));

  // In that endpoint's deliveries, with its attempt; nowhere else.
  const json::object done = wait_delivery(
      str(delivery.at("id")), [](const json::object& d) { return d.at("status") == "succeeded"; });
  EXPECT_EQ(done.at("status"), "succeeded");
  EXPECT_EQ(done.at("event_type"), "webhook.test");
  ASSERT_EQ(done.at("attempts").as_array().size(), 1u);
  EXPECT_EQ(done.at("attempts").as_array()[0].at("status_code"), 200);
  EXPECT_EQ(ids_of(a->get("webhook-deliveries?webhook_id=" + target).data().as_array()),
            (std::vector<std::string>{str(delivery.at("id"))}));
  EXPECT_TRUE(deliveries("webhook_id=" + sibling).empty());
  EXPECT_TRUE(is_error(get("/events?id=" + event_id), 404));
  EXPECT_TRUE(is_error(a->get("events?id=" + event_id), 404));
  EXPECT_TRUE(events().empty());
  EXPECT_TRUE(a->get("events").data().as_array().empty());

  // Redelivered like any delivery: the same id and bytes again.
  ASSERT_STATUS(a->post("webhook-deliveries/retry?id=" + str(delivery.at("id"))), 200u);
  ASSERT_TRUE(receiver.wait_for(2, kDeliveryWait, path)) << receiver.describe();
  const ReceivedRequest again = receiver.requests(path)[1];
  EXPECT_EQ(again.webhook_id(), event_id);
  EXPECT_EQ(again.body, request.body);
  EXPECT_TRUE(is_webhook_of(again, *body, {secret}));
  EXPECT_EQ(receiver.count(sibling_path), 0u);
}

TEST_F(DashboardSecurityTest, TheTestEventNeedsAnEnabledEndpointOfTheWorkspace) {
  auto a = signed_in(ws_.id);
  const HttpResponse made =
      a->post("webhooks", json::object{{"url", "https://hooks.example.com/x"}, {"enabled", false}});
  ASSERT_STATUS(made, 201u);
  const std::string id = str(made.data().at("id"));
  EXPECT_TRUE(is_error(a->post("webhooks/test?id=" + id), 400, "disabled"));
  EXPECT_TRUE(is_error(a->post("webhooks/test?id=" + kAbsentId), 404));
  EXPECT_TRUE(is_error(a->post("webhooks/test"), 400));
  EXPECT_TRUE(is_error(a->post("webhooks/test?id=nope"), 400));
  EXPECT_TRUE(deliveries().empty());
}

// --- Session expiry, with short lifetimes ---

class DashboardSessionExpiryTest : public DashboardTest {
 public:
  static constexpr auto kIdle = std::chrono::seconds(2);
  static constexpr auto kLifetime = std::chrono::seconds(5);

  static void SetUpTestSuite() {
    start_webhook_suite_server({"--rate-limit", "1000000/60s", "--dashboard-session-idle", "2s",
                                "--dashboard-session-lifetime", "5s"});
  }
};

TEST_F(DashboardSessionExpiryTest, ASessionEndsAfterItsIdleTime) {
  auto a = signed_in(ws_.id);
  std::this_thread::sleep_for(kIdle / 2);
  ASSERT_STATUS(a->get("session"), 200u);
  std::this_thread::sleep_for(kIdle + std::chrono::milliseconds(500));
  EXPECT_TRUE(is_error(a->get("session"), 401));
  EXPECT_TRUE(is_error(a->get("keys"), 401));
  EXPECT_STATUS(a->page("/dashboard/keys"), 303u);
  // An ended session is not revived by a later request either.
  EXPECT_TRUE(is_error(a->get("session"), 401));
}

TEST_F(DashboardSessionExpiryTest, ASessionInUseEndsAtItsLifetime) {
  auto a = signed_in(ws_.id);
  // The session began before this point, so its age is at least the time since.
  const auto start = std::chrono::steady_clock::now();
  // A request every half second keeps it from idling: still open past the idle time.
  while (std::chrono::steady_clock::now() - start < kLifetime - std::chrono::milliseconds(1500)) {
    ASSERT_STATUS(a->get("keys"), 200u);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  while (std::chrono::steady_clock::now() - start < kLifetime + std::chrono::milliseconds(700)) {
    a->get("session");
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  EXPECT_TRUE(is_error(a->get("session"), 401));
  EXPECT_TRUE(is_error(a->get("keys"), 401));
  // Signing in again opens a new one.
  auto again = signed_in(ws_.id, "again");
  EXPECT_STATUS(again->get("keys"), 200u);
}

}  // namespace
}  // namespace leadline_test
