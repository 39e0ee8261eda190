// Injection: SQL metacharacters in every string field and in search, sort, tag, cursor, id and
// the other query parameters are stored and returned verbatim or refused with a 400 — never a
// 500 — and leave the data intact; CR/LF smuggled in through query values, paths, body strings
// or X-Request-Id never reaches the response head.

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <vector>

#include "support/fixture.hpp"
#include "support/raw_socket.hpp"

namespace leadline_test {
namespace {

const std::vector<std::string> kSqlPayloads = {
    "'",
    "\"",
    ";",
    "--",
    "/*",
    "*/",
    "%",
    "_",
    "\\",
    "' OR 1=1 --",
    "Robert'); DROP TABLE leads;--",
    "\" OR \"\"=\"",
    "1; DELETE FROM contacts",
    "%' OR '%'='",
    "x' UNION SELECT key_hash FROM api_keys --",
    "\\'; --",
    "?",
    ":name",
    "$1",
    "') OR ('a'='a",
};

std::string ascii_lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool contains_folded(const std::string& haystack, const std::string& needle) {
  return ascii_lower(haystack).find(ascii_lower(needle)) != std::string::npos;
}

class InjectionTest : public ApiTest {
 protected:
  // Everything a key of the workspace can see.
  json::array snapshot(std::optional<std::string> key = {}) {
    json::array all;
    all.push_back(list_all("leads", "", key));
    all.push_back(list_all("contacts", "", key));
    all.push_back(list_all("conversations", "", key));
    return all;
  }
};

TEST_F(InjectionTest, SqlMetacharactersInEveryStringFieldAreStoredAndReturnedVerbatim) {
  // Another workspace's data must survive whatever this one sends.
  WorkspaceKeys other = make_workspace("Bystander");
  create_lead({{"visitor_name", "Bystander lead"}}, other.rw.key);
  create_contact({{"first_name", "Bystander"}, {"email", "by@stander.io"}}, other.rw.key);
  const json::array bystander = snapshot(other.rw.key);

  for (std::size_t i = 0; i < kSqlPayloads.size(); ++i) {
    const std::string& p = kSqlPayloads[i];
    SCOPED_TRACE("payload " + p);
    json::object lead_body{{"visitor_name", p},      {"visitor_phone", p}, {"visitor_company", p},
                           {"need_summary", p},      {"source", p},        {"tags", json::array{p}},
                           {"pipeline_stage", "new"}};
    HttpResponse created = post("/leads", lead_body);
    ASSERT_STATUS(created, 201u);
    const json::object& lead = created.data().as_object();
    for (const char* f :
         {"visitor_name", "visitor_phone", "visitor_company", "need_summary", "source"}) {
      EXPECT_EQ(str(lead.at(f)), p) << f;
    }
    EXPECT_EQ(strings_of(lead.at("tags")), std::vector<std::string>{p});
    const std::string lead_id = str(lead.at("id"));
    json::object fetched = get_one("leads", lead_id);
    EXPECT_EQ(str(fetched.at("visitor_name")), p);
    EXPECT_EQ(str(fetched.at("need_summary")), p);

    const std::string changed = p + " (changed)";
    HttpResponse patched =
        patch("/leads?id=" + lead_id, json::object{{"visitor_name", changed},
                                                   {"visitor_company", changed},
                                                   {"need_summary", changed},
                                                   {"tags", json::array{changed, p}}});
    ASSERT_STATUS(patched, 200u);
    EXPECT_EQ(str(patched.data().at("visitor_name")), changed);
    EXPECT_EQ(strings_of(patched.data().at("tags")), (std::vector<std::string>{changed, p}));

    json::object contact_body{{"first_name", p},
                              {"last_name", p},
                              {"phone", p},
                              {"company_name", p},
                              {"profile_notes", p},
                              {"tags", json::array{p}},
                              {"metadata", json::object{{p, p}}}};
    HttpResponse contact = post("/contacts", contact_body);
    ASSERT_STATUS(contact, 201u);
    for (const char* f : {"first_name", "last_name", "phone", "company_name", "profile_notes"}) {
      EXPECT_EQ(str(contact.data().at(f)), p) << f;
    }
    const std::string contact_id = str(contact.data().at("id"));
    HttpResponse contact_patched =
        patch("/contacts?id=" + contact_id,
              json::object{{"last_name", changed}, {"tags", json::array{}}});
    ASSERT_STATUS(contact_patched, 200u);
    EXPECT_EQ(str(contact_patched.data().at("last_name")), changed);
    EXPECT_EQ(str(contact_patched.data().at("first_name")), p);

    // Values that must be one of a list, a UUID or an e-mail address are refused, not run.
    EXPECT_TRUE(is_error(post("/leads", json::object{{"visitor_name", "A"}, {"pipeline_stage", p}}),
                         400, "pipeline_stage"));
    EXPECT_TRUE(is_error(patch("/leads?id=" + lead_id, json::object{{"assigned_rep_id", p}}), 400,
                         "assigned_rep_id"));
    EXPECT_TRUE(is_error(post("/leads", json::object{{"visitor_name", "A"}, {"visitor_email", p}}),
                         400, "visitor_email"));
    EXPECT_TRUE(
        is_error(post("/contacts", json::object{{"first_name", "A"}, {"email", p}}), 400, "email"));
    EXPECT_TRUE(is_error(post("/leads", json::object{{"visitor_name", "A"}, {p, "x"}}), 400));
  }

  // E-mail addresses may legitimately hold quotes, percent signs and the like.
  for (const std::string& email :
       {std::string("o'brien@example.com"), std::string("a%b_c@example.com"),
        std::string("Robert');DROP_TABLE_contacts;--@example.com"),
        std::string("\"quoted\"@example.com"), std::string("back\\slash@example.com")}) {
    SCOPED_TRACE(email);
    HttpResponse c = post("/contacts", json::object{{"first_name", "E"}, {"email", email}});
    ASSERT_STATUS(c, 201u);
    EXPECT_EQ(str(c.data().at("email")), email);
    // De-duplication compares the address as data too: the same one again is a 409.
    HttpResponse again = post("/contacts", json::object{{"first_name", "E2"}, {"email", email}});
    ASSERT_STATUS(again, 409u);
    EXPECT_EQ(again.object().at("data").at("id"), c.data().at("id"));
    HttpResponse l = post("/leads", json::object{{"visitor_name", "E"}, {"visitor_email", email}});
    ASSERT_STATUS(l, 201u);
    EXPECT_EQ(str(l.data().at("visitor_email")), email);
  }

  const auto n = static_cast<std::int64_t>(kSqlPayloads.size());
  EXPECT_EQ(total_count(get("/leads")), n + 5);
  EXPECT_EQ(total_count(get("/contacts")), n + 5);
  EXPECT_EQ(snapshot(other.rw.key), bystander);
  EXPECT_TRUE(server().running());
}

TEST_F(InjectionTest, SqlMetacharactersInQueryParametersAreDataOr400) {
  // Records whose searchable text and tags hold the metacharacters themselves.
  const std::vector<std::string> names = {"plain",       "O'Brien",    "50% off",    "snake_case",
                                          "back\\slash", "semi;colon", "dash--dash", "quote\"d"};
  std::vector<json::value> lines;
  for (const auto& name : names) {
    lines.push_back(
        json::object{{"type", "lead"}, {"visitor_name", name}, {"tags", json::array{name}}});
    lines.push_back(
        json::object{{"type", "contact"}, {"first_name", name}, {"tags", json::array{name}}});
    // Its visitor (without e-mail) becomes a second, untagged contact of the same name.
    lines.push_back(conversation_line({{"first_name", name}}, {}, timestamp_from_now(-5000ms),
                                      "open", json::array{name}));
  }
  import_lines(ws_.id, lines);
  WorkspaceKeys other = make_workspace("Bystander");
  create_lead({{"visitor_name", "O'Brien elsewhere"}}, other.rw.key);
  const json::array bystander = snapshot(other.rw.key);
  const json::array before = snapshot();

  std::vector<std::string> probes = kSqlPayloads;
  probes.insert(probes.end(), names.begin(), names.end());
  for (const auto& p : probes) {
    SCOPED_TRACE("payload " + p);
    const std::string v = url_encode(p);
    const auto expected_matches = static_cast<std::int64_t>(
        std::count_if(names.begin(), names.end(),
                      [&](const std::string& name) { return contains_folded(name, p); }));
    const auto expected_tagged =
        static_cast<std::int64_t>(std::count(names.begin(), names.end(), p));
    for (const char* resource : {"leads", "contacts", "conversations"}) {
      SCOPED_TRACE(resource);
      const std::string base = std::string("/") + resource;
      HttpResponse search = get(base + "?search=" + v);
      ASSERT_STATUS(search, 200u);
      EXPECT_EQ(total_count(search),
                std::string(resource) == "contacts" ? 2 * expected_matches : expected_matches);
      for (const auto& item : search.data().as_array()) {
        const json::object& o = item.as_object();
        const char* field = std::string(resource) == "leads"      ? "visitor_name"
                            : std::string(resource) == "contacts" ? "first_name"
                                                                  : "visitor_name";
        EXPECT_TRUE(contains_folded(str(o.at(field)), p)) << json::serialize(o);
      }
      if (std::string(resource) != "leads") {
        HttpResponse tagged = get(base + "?tag=" + v);
        ASSERT_STATUS(tagged, 200u);
        EXPECT_EQ(total_count(tagged), expected_tagged);
      }
      EXPECT_TRUE(is_error(get(base + "?sort=" + v), 400, "sort"));
      EXPECT_TRUE(is_error(get(base + "?sort=created_at:" + v), 400, "sort"));
      EXPECT_TRUE(is_error(get(base + "?cursor=" + v), 400, "cursor"));
      EXPECT_TRUE(is_error(get(base + "?limit=" + v), 400, "limit"));
      EXPECT_TRUE(is_error(get(base + "?page=" + v), 400, "page"));
      EXPECT_TRUE(is_error(get(base + "?id=" + v), 400, "id"));
      EXPECT_TRUE(
          is_error(patch(base + "?id=" + v, json::object{{"tags", json::array{}}}), 400, "id"));
      EXPECT_TRUE(is_error(get(base + "?" + v + "=1"), 400));
    }
    EXPECT_TRUE(is_error(get("/leads?stage=" + v), 400, "stage"));
    EXPECT_TRUE(is_error(get("/conversations?status=" + v), 400, "status"));
    EXPECT_TRUE(is_error(del("/leads?id=" + v), 400, "id"));
    EXPECT_TRUE(is_error(del("/contacts?id=" + v), 400, "id"));
  }
  // Search and a filter combined with a cursor walk still see exactly the stored text.
  json::array found = list_all("leads", "search=" + url_encode("'"), std::nullopt, 1);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(str(found.at(0).at("visitor_name")), "O'Brien");

  EXPECT_EQ(snapshot(), before);
  EXPECT_EQ(snapshot(other.rw.key), bystander);
  EXPECT_TRUE(server().running());
}

// --- Header injection -----------------------------------------------------------------------

const std::set<std::string> kResponseHeaders = {
    "date",        "content-type",          "content-length",   "connection",
    "allow",       "www-authenticate",      "x-request-id",     "x-ratelimit-limit",
    "retry-after", "x-ratelimit-remaining", "x-ratelimit-reset"};

// Every line of the head is a well-formed field of a known name; nothing smuggled appears.
::testing::AssertionResult clean_head(const std::string& head) {
  if (ascii_lower(head).find("injected") != std::string::npos) {
    return ::testing::AssertionFailure() << "smuggled text in the response head:\n" << head;
  }
  std::size_t pos = head.find("\r\n");
  if (pos == std::string::npos) return ::testing::AssertionFailure() << "no status line";
  pos += 2;
  while (pos < head.size()) {
    std::size_t end = head.find("\r\n", pos);
    if (end == std::string::npos) return ::testing::AssertionFailure() << "unterminated line";
    if (end == pos) {  // the empty line ending the head
      pos += 2;
      break;
    }
    std::string line = head.substr(pos, end - pos);
    pos = end + 2;
    auto colon = line.find(": ");
    std::string name = ascii_lower(line.substr(0, colon));
    if (colon == std::string::npos || !kResponseHeaders.count(name)) {
      return ::testing::AssertionFailure() << "unexpected header line '" << line << "' in\n"
                                           << head;
    }
    for (char c : line) {
      if (c == '\r' || c == '\n' || c == '\0') {
        return ::testing::AssertionFailure() << "control character in '" << line << "'";
      }
    }
  }
  if (pos != head.size()) {
    return ::testing::AssertionFailure() << "bytes after the end of the head:\n" << head;
  }
  return ::testing::AssertionSuccess();
}

class HeaderInjectionTest : public ApiTest {
 protected:
  // Sends raw bytes on a fresh connection; returns the response with its raw head.
  std::pair<std::optional<HttpResponse>, std::string> exchange(const std::string& bytes) {
    RawSocket s(server().host(), server().port());
    std::string head;
    if (!s.send_all(bytes)) return {std::nullopt, ""};
    auto r = s.read_response(10s, &head);
    return {std::move(r), head};
  }

  std::string request(const std::string& method, const std::string& target,
                      const std::string& extra = "", const std::string& body = "") {
    std::string out = method + " " + target + " HTTP/1.1\r\nHost: leadline\r\n" +
                      "Authorization: Bearer " + ws_.rw.key + "\r\n" + extra;
    if (!body.empty() || method == "POST" || method == "PATCH") {
      out += "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
             "\r\n";
    }
    return out + "\r\n" + body;
  }
};

TEST_F(HeaderInjectionTest, EncodedCrLfInQueriesPathsAndBodiesNeverReachTheResponseHead) {
  const std::string crlf = "%0D%0ASet-Cookie:%20injected=1%0D%0AX-Injected:%201";
  const std::string lf = "%0ASet-Cookie:%20injected=1";
  const std::string base = kBase;
  struct Case {
    std::string name;
    std::string bytes;
    unsigned status;
  };
  const std::string body_text = "a\r\nSet-Cookie: injected=1\r\n\r\nHTTP/1.1 200 OK";
  const std::string crlf_body = json::serialize(json::object{{"visitor_name", body_text}});
  const std::vector<Case> cases = {
      {"search", request("GET", base + "/leads?search=" + crlf), 400},
      {"search lf", request("GET", base + "/contacts?search=" + lf), 400},
      {"tag", request("GET", base + "/contacts?tag=" + crlf), 200},
      {"sort", request("GET", base + "/leads?sort=" + crlf), 400},
      {"cursor", request("GET", base + "/leads?cursor=" + crlf), 400},
      {"id", request("GET", base + "/leads?id=" + crlf), 400},
      {"stage", request("GET", base + "/leads?stage=" + crlf), 400},
      {"parameter name", request("GET", base + "/leads?x" + crlf + "=1"), 400},
      {"path", request("GET", base + "/leads" + crlf), 404},
      {"path 405", request("PUT", base + "/leads?x=" + crlf, "", "{}"), 405},
      {"request id percent", request("GET", base + "/leads", "X-Request-Id: a" + crlf + "\r\n"),
       200},
      {"body string", request("POST", base + "/leads", "", crlf_body), 201},
      {"patch body",
       request("PATCH", base + "/leads?id=01890a5d-ac96-774b-bcce-b302099a8057", "",
               R"({"need_summary":"x\r\nX-Injected: 1"})"),
       404},
      {"unauthenticated", "GET " + base + "/leads?search=" + crlf + " HTTP/1.1\r\nHost: x\r\n\r\n",
       401},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    auto [r, head] = exchange(c.bytes);
    ASSERT_TRUE(r.has_value()) << "no response";
    EXPECT_EQ(r->status, c.status) << r->describe();
    EXPECT_TRUE(clean_head(head));
    EXPECT_FALSE(r->has_header("Set-Cookie")) << r->describe();
    EXPECT_FALSE(r->has_header("X-Injected")) << r->describe();
    // The body is JSON: any CR/LF the client sent is escaped there, never raw.
    EXPECT_EQ(r->body.find_first_of("\r\n"), std::string::npos) << r->describe();
    if (c.name == "body string") {
      // Stored verbatim and returned as data.
      EXPECT_EQ(str(r->data().at("visitor_name")), body_text);
      EXPECT_EQ(str(get_one("leads", str(r->data().at("id"))).at("visitor_name")), body_text);
    }
  }
  EXPECT_TRUE(server().running());
}

TEST_F(HeaderInjectionTest, RequestIdsWithBadCharactersAreReplacedNeverEchoed) {
  for (const std::string& id :
       {std::string("abc\tdef"), std::string("a b"), std::string("a%0D%0Ab"),
        std::string("a\\r\\nb"), std::string("caf\xc3\xa9"), std::string("x:y"),
        std::string("<script>"), repeat("z", 129)}) {
    SCOPED_TRACE(id);
    auto [r, head] =
        exchange(request("GET", std::string(kBase) + "/leads", "X-Request-Id: " + id + "\r\n"));
    ASSERT_TRUE(r.has_value());
    EXPECT_STATUS(*r, 200u);
    EXPECT_TRUE(clean_head(head));
    const std::string echoed = r->header("X-Request-Id");
    EXPECT_NE(echoed, id);
    ASSERT_EQ(echoed.size(), 28u) << echoed;
    EXPECT_EQ(echoed.substr(0, 4), "req_");
    EXPECT_TRUE(std::all_of(echoed.begin(), echoed.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    })) << echoed;
  }
  // A raw CR, LF or NUL inside a header value: whatever the parser makes of it, nothing of it
  // reaches the response head.
  for (const std::string& bad :
       {std::string("X-Request-Id: a\rSet-Cookie: injected=1\r\n"),
        std::string("X-Request-Id: a\nSet-Cookie: injected=1\r\n"),
        std::string("X-Request-Id: a") + '\0' + "Set-Cookie: injected=1\r\n",
        std::string("X-Request-Id: id\x7fSet-Cookie: injected=1\r\n")}) {
    SCOPED_TRACE(json::serialize(json::string(bad)));
    RawSocket s(server().host(), server().port());
    ASSERT_TRUE(s.send_all(request("GET", std::string(kBase) + "/leads", bad)));
    std::string head;
    auto r = s.read_response(5s, &head);
    if (r) {
      EXPECT_TRUE(clean_head(head));
      EXPECT_FALSE(r->has_header("Set-Cookie")) << r->describe();
      EXPECT_LT(r->status, 500u) << r->describe();
    }
  }
  EXPECT_STATUS(get("/leads"), 200u);
}

}  // namespace
}  // namespace leadline_test
