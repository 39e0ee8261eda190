// HTTP basics of the external interface: envelopes, status codes, Content-Type, X-Request-Id,
// routing (404/405 before authentication), id handling and the HTTP layer's own refusals.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "support/fixture.hpp"

namespace leadline_test {
namespace {

class HttpBasicsTest : public ApiTest {};

std::set<std::string> allow_methods(const HttpResponse& r) {
  std::set<std::string> methods;
  std::string value = r.header("Allow");
  std::size_t start = 0;
  while (start <= value.size()) {
    auto comma = value.find(',', start);
    if (comma == std::string::npos) comma = value.size();
    std::string token = value.substr(start, comma - start);
    token.erase(0, token.find_first_not_of(' '));
    token.erase(token.find_last_not_of(' ') + 1);
    if (!token.empty()) methods.insert(token);
    start = comma + 1;
  }
  return methods;
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

TEST_F(HttpBasicsTest, CreateReturns201WithSingleEnvelopeAndJsonContentType) {
  HttpResponse r = post("/leads", json::object{{"visitor_name", "Ada"}});
  EXPECT_STATUS(r, 201u);
  EXPECT_TRUE(is_single_envelope(r));
  EXPECT_TRUE(has_json_content_type(r));
  EXPECT_FALSE(r.header("X-Request-Id").empty()) << r.describe();

  HttpResponse c = post("/contacts", json::object{{"first_name", "Ada"}});
  EXPECT_STATUS(c, 201u);
  EXPECT_TRUE(is_single_envelope(c));
  EXPECT_TRUE(has_json_content_type(c));
}

TEST_F(HttpBasicsTest, ListsReturn200WithListEnvelope) {
  create_lead({{"visitor_name", "Ada"}});
  for (const char* path : {"/leads", "/contacts", "/conversations"}) {
    SCOPED_TRACE(path);
    HttpResponse r = get(path);
    EXPECT_STATUS(r, 200u);
    EXPECT_TRUE(is_list_envelope(r));
    EXPECT_TRUE(has_json_content_type(r));
  }
}

TEST_F(HttpBasicsTest, EverySuccessOtherThanCreateIs200) {
  json::object lead = create_lead({{"visitor_name", "Ada"}});
  std::string lead_id = str(lead.at("id"));
  EXPECT_STATUS(get("/leads?id=" + lead_id), 200u);
  EXPECT_STATUS(patch("/leads?id=" + lead_id, json::object{{"need_summary", "x"}}), 200u);
  EXPECT_STATUS(del("/leads?id=" + lead_id), 200u);

  json::object contact = create_contact({{"first_name", "Ada"}});
  std::string contact_id = str(contact.at("id"));
  EXPECT_STATUS(get("/contacts?id=" + contact_id), 200u);
  EXPECT_STATUS(patch("/contacts?id=" + contact_id, json::object{{"last_name", "L"}}), 200u);
  EXPECT_STATUS(del("/contacts?id=" + contact_id), 200u);

  import_lines(ws_.id, {conversation_line({{"first_name", "V"}, {"email", "v@example.com"}},
                                          {message_line("hi", timestamp_from_now(-1000ms))},
                                          timestamp_from_now(-2000ms))});
  std::string conv_id = conversation_ids().at(0);
  EXPECT_STATUS(get("/conversations?id=" + conv_id), 200u);
  EXPECT_STATUS(patch("/conversations?id=" + conv_id, json::object{{"status", "archived"}}), 200u);
}

TEST_F(HttpBasicsTest, ErrorsAreJsonEnvelopesWithContentTypeAndRequestId) {
  std::vector<std::pair<std::string, HttpResponse>> cases;
  cases.emplace_back("401", get("/leads", ""));
  cases.emplace_back("403", post("/leads", json::object{{"visitor_name", "A"}}, ws_ro().key));
  cases.emplace_back("400", post("/leads", json::object{{"visitor_name", 5}}));
  cases.emplace_back("404 record", get("/leads?id=" + kAbsentId));
  cases.emplace_back("404 route", get("/nothing-here"));
  cases.emplace_back("405", send("PUT", "/leads", std::string("{}")));
  const std::map<std::string, unsigned> status = {{"401", 401},       {"403", 403},
                                                  {"400", 400},       {"404 record", 404},
                                                  {"404 route", 404}, {"405", 405}};
  for (const auto& [name, r] : cases) {
    SCOPED_TRACE(name);
    EXPECT_TRUE(is_error(r, status.at(name)));
    EXPECT_TRUE(has_json_content_type(r));
    EXPECT_FALSE(r.header("X-Request-Id").empty()) << r.describe();
  }
}

TEST_F(HttpBasicsTest, SaneClientRequestIdIsEchoed) {
  for (const std::string& id :
       {std::string("abc-DEF_123.x"), std::string("a"), repeat("A", 128), std::string("..--__")}) {
    SCOPED_TRACE(id);
    HttpResponse ok = send("GET", "/leads", std::nullopt, {{"X-Request-Id", id}});
    EXPECT_STATUS(ok, 200u);
    EXPECT_EQ(ok.header("X-Request-Id"), id);
    HttpResponse unauth = send("GET", "/leads", std::nullopt, {{"X-Request-Id", id}}, "");
    EXPECT_STATUS(unauth, 401u);
    EXPECT_EQ(unauth.header("X-Request-Id"), id);
    HttpResponse route = send("GET", "/nope", std::nullopt, {{"X-Request-Id", id}}, "");
    EXPECT_STATUS(route, 404u);
    EXPECT_EQ(route.header("X-Request-Id"), id);
  }
}

TEST_F(HttpBasicsTest, InsaneClientRequestIdIsReplacedByAGeneratedOne) {
  for (const std::string& id :
       {repeat("A", 129), std::string("has space"), std::string("a/b"), std::string("semi;colon"),
        std::string("caf\xc3\xa9"), std::string("a+b"), std::string("{x}")}) {
    SCOPED_TRACE(id);
    HttpResponse r = send("GET", "/leads", std::nullopt, {{"X-Request-Id", id}});
    EXPECT_STATUS(r, 200u);
    std::string got = r.header("X-Request-Id");
    EXPECT_FALSE(got.empty());
    EXPECT_NE(got, id);
  }
}

TEST_F(HttpBasicsTest, RequestIdIsGeneratedAndDiffersBetweenRequests) {
  HttpResponse a = get("/leads");
  HttpResponse b = get("/leads");
  std::string ida = a.header("X-Request-Id");
  std::string idb = b.header("X-Request-Id");
  EXPECT_FALSE(ida.empty());
  EXPECT_FALSE(idb.empty());
  EXPECT_NE(ida, idb);
}

// The API's own OpenAPI document is public: no key, no rate limit, every path of the API in it.
TEST_F(HttpBasicsTest, OpenApiDocumentIsServedWithoutAKey) {
  const HttpResponse doc = client().request("GET", "/api/v1/external/openapi.json");
  ASSERT_EQ(doc.status, 200u) << doc.describe();
  EXPECT_TRUE(has_json_content_type(doc));
  EXPECT_FALSE(doc.has_header("X-RateLimit-Limit"));
  ASSERT_TRUE(doc.json.has_value());
  const auto& root = doc.object();
  EXPECT_EQ(root.at("openapi").as_string(), "3.1.0");
  const auto& paths = root.at("paths").as_object();
  for (const char* path : {"/api/v1/external/leads", "/api/v1/external/contacts",
                           "/api/v1/external/conversations", "/api/v1/external/openapi.json"}) {
    EXPECT_TRUE(paths.contains(path)) << path;
  }
  const HttpResponse post = client().request("POST", "/api/v1/external/openapi.json", "{}");
  EXPECT_TRUE(is_error(post, 405));
  EXPECT_EQ(allow_methods(post), (std::set<std::string>{"GET", "HEAD"}));
}

// The human-readable reference: an HTML page that renders the same document with Redoc, whose
// script this server serves itself. Public like the document; not API responses, so they are
// left out of the OpenAPI contract check.
TEST_F(HttpBasicsTest, ReferencePageAndItsScriptAreServedWithoutAKey) {
  HttpClient browser("127.0.0.1", server().port());
  browser.contract_checked = false;
  for (const char* path : {"/docs", "/docs/"}) {
    SCOPED_TRACE(path);
    const HttpResponse page = browser.request("GET", path);
    ASSERT_EQ(page.status, 200u) << page.describe();
    EXPECT_EQ(page.header("Content-Type"), "text/html; charset=utf-8");
    EXPECT_FALSE(page.has_header("X-RateLimit-Limit"));
    EXPECT_FALSE(page.header("X-Request-Id").empty());
    EXPECT_NE(page.body.find(R"(<redoc spec-url="/api/v1/external/openapi.json")"),
              std::string::npos);
    EXPECT_NE(page.body.find(R"(<script src="/docs/redoc.standalone.js">)"), std::string::npos);
    // Nothing is loaded from another origin.
    EXPECT_EQ(page.body.find("http"), std::string::npos) << page.body;
    EXPECT_NE(page.header("Content-Security-Policy").find("script-src 'self'"), std::string::npos);
  }
  const HttpResponse script = browser.request("GET", "/docs/redoc.standalone.js");
  ASSERT_EQ(script.status, 200u);
  EXPECT_EQ(script.header("Content-Type"), "text/javascript; charset=utf-8");
  EXPECT_GT(script.body.size(), 500'000u);
  EXPECT_NE(script.body.find("Redoc"), std::string::npos);
  EXPECT_NE(script.header("Cache-Control").find("max-age="), std::string::npos);

  const HttpResponse head = browser.request("HEAD", "/docs");
  EXPECT_EQ(head.status, 200u);
  EXPECT_TRUE(head.body.empty());
  const HttpResponse post = browser.request("POST", "/docs", "{}");
  EXPECT_TRUE(is_error(post, 405));
  EXPECT_EQ(allow_methods(post), (std::set<std::string>{"GET", "HEAD"}));
  EXPECT_TRUE(is_error(browser.request("GET", "/docs/other.js"), 404));
}

// The 404 says what to send instead: ids travel in the query, not in the path.
TEST_F(HttpBasicsTest, UnknownPathSaysWhatToSendInstead) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"/api/v1/external/leads/" + kAbsentId,
       "no endpoint at this path; to address one lead, send /api/v1/external/leads?id=<id>"},
      {"/api/v1/external/contacts/" + kAbsentId + "/notes",
       "no endpoint at this path; to address one contact, send /api/v1/external/contacts?id=<id>"},
      {"/api/v1/external/conversations/x",
       "no endpoint at this path; to address one conversation, send "
       "/api/v1/external/conversations?id=<id>"},
      {"/api/v1/external/leads/",
       "no endpoint at this path; send /api/v1/external/leads without the trailing slash"},
      {"/api/v1/external/widgets",
       "no endpoint at this path; the endpoints are /api/v1/external/leads, "
       "/api/v1/external/contacts, /api/v1/external/conversations, /api/v1/external/events, "
       "/api/v1/external/webhooks and /api/v1/external/webhook-deliveries"},
      {"/api/v1/external/leadsx",
       "no endpoint at this path; the endpoints are /api/v1/external/leads, "
       "/api/v1/external/contacts, /api/v1/external/conversations, /api/v1/external/events, "
       "/api/v1/external/webhooks and /api/v1/external/webhook-deliveries"},
      {"/api/v1/leads", "no endpoint at this path; the API lives under /api/v1/external"},
      {"/api/v1/externalleads", "no endpoint at this path; the API lives under /api/v1/external"},
      {"/", "no endpoint at this path; the API lives under /api/v1/external"},
  };
  for (const auto& [path, sentence] : cases) {
    SCOPED_TRACE(path);
    const HttpResponse r = client().request("GET", path + "?id=" + kAbsentId);
    ASSERT_TRUE(is_error(r, 404));
    EXPECT_EQ(str(r.object().at("error")), sentence);
  }
}

TEST_F(HttpBasicsTest, UnknownPathIs404JsonWithoutAuthentication) {
  for (const std::string& path :
       {std::string("/api/v1/external/widgets"), std::string("/api/v2/external/leads"),
        std::string("/"), std::string("/api/v1/leads"), std::string("/api/v1/external/webhookz"),
        "/api/v1/external/leads/" + kAbsentId}) {
    SCOPED_TRACE(path);
    HttpResponse no_key = client().request("GET", path);
    EXPECT_TRUE(is_error(no_key, 404));
    EXPECT_TRUE(has_json_content_type(no_key));
    HttpResponse bad_key =
        client().request("GET", path, std::nullopt, {{"Authorization", "Bearer fc_live_nope"}});
    EXPECT_TRUE(is_error(bad_key, 404));
  }
}

TEST_F(HttpBasicsTest, UnsupportedMethodIs405WithAllowWithoutAuthentication) {
  struct Case {
    std::string path;
    std::string method;
    std::set<std::string> must_allow;
    std::set<std::string> must_not_allow;
  };
  const std::vector<Case> cases = {
      {"/leads", "PUT", {"GET", "POST", "PATCH", "DELETE"}, {"PUT"}},
      {"/contacts", "PUT", {"GET", "POST", "PATCH", "DELETE"}, {"PUT"}},
      {"/conversations", "POST", {"GET", "PATCH"}, {"POST", "DELETE", "PUT"}},
      {"/conversations", "DELETE", {"GET", "PATCH"}, {"POST", "DELETE", "PUT"}},
      {"/conversations", "PUT", {"GET", "PATCH"}, {"POST", "DELETE", "PUT"}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.method + " " + c.path);
    for (const std::optional<std::string>& key :
         {std::optional<std::string>(""), std::optional<std::string>(ws_.rw.key)}) {
      std::optional<std::string> body;
      if (c.method != "DELETE") body = "{}";
      HttpResponse r = send(c.method, c.path, body, {}, key);
      EXPECT_TRUE(is_error(r, 405));
      EXPECT_TRUE(has_json_content_type(r));
      ASSERT_TRUE(r.has_header("Allow")) << r.describe();
      auto allowed = allow_methods(r);
      for (const auto& m : c.must_allow) EXPECT_TRUE(allowed.count(m)) << m << "\n" << r.describe();
      for (const auto& m : c.must_not_allow) {
        EXPECT_FALSE(allowed.count(m)) << m << "\n" << r.describe();
      }
    }
  }
}

TEST_F(HttpBasicsTest, MissingIdOnPatchOrDeleteIs400) {
  EXPECT_TRUE(is_error(patch("/leads", json::object{{"need_summary", "x"}}), 400));
  EXPECT_TRUE(is_error(del("/leads"), 400));
  EXPECT_TRUE(is_error(patch("/contacts", json::object{{"last_name", "x"}}), 400));
  EXPECT_TRUE(is_error(del("/contacts"), 400));
  EXPECT_TRUE(is_error(patch("/conversations", json::object{{"status", "open"}}), 400));
}

TEST_F(HttpBasicsTest, IdThatIsNotAUuidIs400) {
  for (const std::string& id :
       {std::string("123"), std::string("not-a-uuid"), std::string("01890a5d-ac96-774b-bcce"),
        std::string("01890a5dac96774bbcceb302099a8057x"),
        std::string("zz890a5d-ac96-774b-bcce-b302099a8057")}) {
    SCOPED_TRACE(id);
    std::string q = "?id=" + url_encode(id);
    EXPECT_TRUE(is_error(get("/leads" + q), 400));
    EXPECT_TRUE(is_error(patch("/leads" + q, json::object{{"need_summary", "x"}}), 400));
    EXPECT_TRUE(is_error(del("/leads" + q), 400));
    EXPECT_TRUE(is_error(get("/contacts" + q), 400));
    EXPECT_TRUE(is_error(patch("/contacts" + q, json::object{{"last_name", "x"}}), 400));
    EXPECT_TRUE(is_error(del("/contacts" + q), 400));
    EXPECT_TRUE(is_error(get("/conversations" + q), 400));
    EXPECT_TRUE(is_error(patch("/conversations" + q, json::object{{"status", "open"}}), 400));
  }
}

TEST_F(HttpBasicsTest, WellFormedUnknownIdIs404) {
  std::string q = "?id=" + kAbsentId;
  EXPECT_TRUE(is_error(get("/leads" + q), 404));
  EXPECT_TRUE(is_error(patch("/leads" + q, json::object{{"need_summary", "x"}}), 404));
  EXPECT_TRUE(is_error(del("/leads" + q), 404));
  EXPECT_TRUE(is_error(get("/contacts" + q), 404));
  EXPECT_TRUE(is_error(patch("/contacts" + q, json::object{{"last_name", "x"}}), 404));
  EXPECT_TRUE(is_error(del("/contacts" + q), 404));
  EXPECT_TRUE(is_error(get("/conversations" + q), 404));
  EXPECT_TRUE(is_error(patch("/conversations" + q, json::object{{"status", "open"}}), 404));
}

TEST_F(HttpBasicsTest, DeletedRecordsAre404) {
  std::string lead = str(create_lead({{"visitor_name", "Ada"}}).at("id"));
  std::string contact = str(create_contact({{"first_name", "Ada"}}).at("id"));
  ASSERT_STATUS(del("/leads?id=" + lead), 200u);
  ASSERT_STATUS(del("/contacts?id=" + contact), 200u);
  EXPECT_TRUE(is_error(get("/leads?id=" + lead), 404));
  EXPECT_TRUE(is_error(patch("/leads?id=" + lead, json::object{{"need_summary", "x"}}), 404));
  EXPECT_TRUE(is_error(del("/leads?id=" + lead), 404));
  EXPECT_TRUE(is_error(get("/contacts?id=" + contact), 404));
  EXPECT_TRUE(is_error(patch("/contacts?id=" + contact, json::object{{"last_name", "x"}}), 404));
  EXPECT_TRUE(is_error(del("/contacts?id=" + contact), 404));
}

TEST_F(HttpBasicsTest, OtherWorkspacesRecordsAre404IndistinguishableFromAbsent) {
  std::string lead = str(create_lead({{"visitor_name", "Ada"}}).at("id"));
  std::string contact = str(create_contact({{"first_name", "Ada"}}).at("id"));
  import_lines(ws_.id, {conversation_line({{"first_name", "V"}}, {}, timestamp_from_now(-5000ms))});
  std::string conv = conversation_ids().at(0);

  WorkspaceKeys other = make_workspace("Other");
  struct Probe {
    std::string method;
    std::string resource;
    std::string id;
    std::optional<std::string> body;
  };
  const std::vector<Probe> probes = {
      {"GET", "/leads", lead, std::nullopt},
      {"PATCH", "/leads", lead, R"({"need_summary":"x"})"},
      {"DELETE", "/leads", lead, std::nullopt},
      {"GET", "/contacts", contact, std::nullopt},
      {"PATCH", "/contacts", contact, R"({"last_name":"x"})"},
      {"DELETE", "/contacts", contact, std::nullopt},
      {"GET", "/conversations", conv, std::nullopt},
      {"PATCH", "/conversations", conv, R"({"status":"archived"})"},
  };
  for (const auto& p : probes) {
    SCOPED_TRACE(p.method + " " + p.resource);
    HttpResponse foreign = send(p.method, p.resource + "?id=" + p.id, p.body, {}, other.rw.key);
    HttpResponse absent = send(p.method, p.resource + "?id=" + kAbsentId, p.body, {}, other.rw.key);
    ASSERT_TRUE(is_error(foreign, 404));
    ASSERT_TRUE(is_error(absent, 404));
    EXPECT_EQ(replace_all(str(foreign.object().at("error")), p.id, "<id>"),
              replace_all(str(absent.object().at("error")), kAbsentId, "<id>"));
  }
  // Nothing was changed or deleted by the other workspace.
  EXPECT_EQ(str(get_one("leads", lead).at("need_summary")), "");
  EXPECT_NE(get_one("contacts", contact).at("last_name"), json::value("x"));
  EXPECT_EQ(str(get_one("conversations", conv).at("conversation").as_object().at("status")),
            "open");
}

TEST_F(HttpBasicsTest, BodyLargerThanOneMebibyteIs413BeforeAuthentication) {
  std::string big =
      R"({"visitor_name":"A","need_summary":")" + std::string(1100 * 1024, 'a') + "\"}";
  for (const std::optional<std::string>& key :
       {std::optional<std::string>(ws_.rw.key), std::optional<std::string>("")}) {
    HttpResponse r = send("POST", "/leads", big, {}, key);
    EXPECT_TRUE(is_error(r, 413));
    EXPECT_TRUE(has_json_content_type(r));
    EXPECT_FALSE(r.header("X-Request-Id").empty()) << r.describe();
    // The connection stays usable or was closed cleanly: the next request succeeds.
    EXPECT_STATUS(get("/leads"), 200u);
  }
  EXPECT_EQ(total_count(get("/leads")), 0);
}

// The HTTP layer's refusals come after the request head was read, so a sane client id is
// echoed there too; an unacceptable one is replaced.
TEST_F(HttpBasicsTest, RefusalOfABodyTooLargeEchoesTheClientRequestId) {
  const std::string big = std::string(1100 * 1024, ' ');
  const HttpResponse echoed = send("POST", "/leads", big, {{"X-Request-Id", "client-413.a_b"}});
  EXPECT_TRUE(is_error(echoed, 413));
  EXPECT_EQ(echoed.header("X-Request-Id"), "client-413.a_b");
  const HttpResponse replaced = send("POST", "/leads", big, {{"X-Request-Id", "no spaces"}});
  EXPECT_TRUE(is_error(replaced, 413));
  EXPECT_NE(replaced.header("X-Request-Id"), "no spaces");
  EXPECT_FALSE(replaced.header("X-Request-Id").empty());
}

TEST_F(HttpBasicsTest, BodyOfExactlyOneMebibyteIsNotRefusedAsTooLarge) {
  std::string head = R"({"visitor_name":"A","need_summary":")";
  std::string body = head + std::string(1024 * 1024 - head.size() - 2, 'a') + "\"}";
  ASSERT_EQ(body.size(), 1024u * 1024u);
  HttpResponse r = send("POST", "/leads", body);
  // need_summary is far beyond 2000 characters: a validation error, not a 413.
  EXPECT_TRUE(is_error(r, 400, "need_summary"));
}

TEST_F(HttpBasicsTest, HugeHeadersAre431) {
  HttpResponse r =
      send("GET", "/leads", std::nullopt, {{"X-Padding", std::string(40 * 1024, 'p')}});
  EXPECT_TRUE(is_error(r, 431));
  EXPECT_TRUE(has_json_content_type(r));
  EXPECT_FALSE(r.header("X-Request-Id").empty()) << r.describe();
  EXPECT_STATUS(get("/leads"), 200u);
}

TEST_F(HttpBasicsTest, MalformedHttpIsRefusedAndTheServerKeepsServing) {
  for (const std::string& bytes :
       {std::string("GARBAGE\r\n\r\n"), std::string("GET /api/v1/external/leads HTTP/9.9\r\n\r\n"),
        std::string(
            "POST /api/v1/external/leads HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n"),
        std::string("\x01\x02\x03\x04\r\n\r\n")}) {
    auto r = raw_exchange(server().host(), server().port(), bytes, std::chrono::seconds(5));
    if (r) {
      EXPECT_GE(r->status, 400u) << r->describe();
      EXPECT_LT(r->status, 500u) << r->describe();
    }
  }
  EXPECT_STATUS(get("/leads"), 200u);
  EXPECT_TRUE(server().running());
}

TEST_F(HttpBasicsTest, VersionIsAPathSegment) {
  EXPECT_STATUS(client().request("GET", "/api/v1/external/leads", std::nullopt,
                                 {{"Authorization", "Bearer " + ws_.rw.key}}),
                200u);
  EXPECT_TRUE(is_error(client().request("GET", "/api/v2/external/leads", std::nullopt,
                                        {{"Authorization", "Bearer " + ws_.rw.key}}),
                       404));
}

TEST_F(HttpBasicsTest, KeepAliveConnectionServesManyRequests) {
  for (int i = 0; i < 20; ++i) ASSERT_STATUS(get("/leads"), 200u);
}

}  // namespace
}  // namespace leadline_test
