// Hostile request bodies: NUL characters and invalid UTF-8 in every string field of every POST
// and PATCH, JSON nested 10,000 deep, numbers beyond the double range, -0, and duplicate keys.
// Each is a 400 (naming the field where there is one), never a 500, and changes nothing.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/fixture.hpp"

namespace leadline_test {
namespace {

class HostileBodiesTest : public ApiTest {
 protected:
  struct Target {
    std::string method;
    std::string path;
    json::object base;  // a valid body the field is added to
  };

  // One existing lead, contact and conversation to PATCH, and a snapshot of them.
  void SetUp() override {
    ApiTest::SetUp();
    lead_ = str(create_lead({{"visitor_name", "Base"}}).at("id"));
    contact_ =
        str(create_contact({{"first_name", "Base"}, {"email", "base@example.com"}}).at("id"));
    import_lines(ws_.id, {conversation_line({{"first_name", "V"}, {"email", "v@example.com"}},
                                            {message_line("hi", timestamp_from_now(-1000ms))},
                                            timestamp_from_now(-2000ms))});
    conversation_ = conversation_ids().at(0);
  }

  Target lead_post() const { return {"POST", "/leads", {{"visitor_name", "A"}}}; }
  Target lead_patch() const { return {"PATCH", "/leads?id=" + lead_, {}}; }
  Target contact_post() const { return {"POST", "/contacts", {{"first_name", "A"}}}; }
  Target contact_patch() const { return {"PATCH", "/contacts?id=" + contact_, {}}; }
  Target conversation_patch() const { return {"PATCH", "/conversations?id=" + conversation_, {}}; }

  // Every string field of every body, with its operation.
  std::vector<std::pair<Target, std::string>> string_fields() const {
    std::vector<std::pair<Target, std::string>> all;
    for (const char* f : {"visitor_name", "visitor_email", "visitor_phone", "visitor_company",
                          "pipeline_stage", "need_summary", "source", "tags"}) {
      all.emplace_back(lead_post(), f);
    }
    for (const char* f : {"pipeline_stage", "assigned_rep_id", "visitor_name", "visitor_email",
                          "visitor_phone", "visitor_company", "need_summary", "tags"}) {
      all.emplace_back(lead_patch(), f);
    }
    for (const char* f :
         {"first_name", "last_name", "email", "phone", "company_name", "tags", "profile_notes"}) {
      all.emplace_back(contact_post(), f);
      all.emplace_back(contact_patch(), f);
    }
    for (const char* f : {"status", "agent_id", "department_id", "tags"}) {
      all.emplace_back(conversation_patch(), f);
    }
    return all;
  }

  // The body with `field` set to a placeholder string (inside an array for tags).
  static std::string body_with_placeholder(const Target& t, const std::string& field) {
    json::object body = t.base;
    if (field == "tags") {
      body[field] = json::array{"fine", kPlaceholder};
    } else {
      body[field] = kPlaceholder;
    }
    return json::serialize(body);
  }

  static std::string replace_placeholder(std::string body, const std::string& with) {
    return body.replace(body.find(kPlaceholder), std::string(kPlaceholder).size(), with);
  }

  // Everything the API shows of the workspace.
  json::array snapshot() {
    json::array all;
    all.push_back(list_all("leads"));
    all.push_back(list_all("contacts"));
    all.push_back(list_all("conversations"));
    all.push_back(get_one("conversations", conversation_));
    return all;
  }

  static constexpr const char* kPlaceholder = "@@PLACEHOLDER@@";
  std::string lead_;
  std::string contact_;
  std::string conversation_;
};

TEST_F(HostileBodiesTest, NulInAnyStringFieldIs400NamingTheField) {
  const json::array before = snapshot();
  for (const auto& [target, field] : string_fields()) {
    for (const std::string& escaped :
         {std::string(R"(\u0000)"), std::string(R"(a\u0000b)"), std::string(R"(ok\u0000)")}) {
      SCOPED_TRACE(target.method + " " + target.path + " " + field + " = " + escaped);
      std::string body = replace_placeholder(body_with_placeholder(target, field), escaped);
      HttpResponse r = send(target.method, target.path, body);
      EXPECT_TRUE(is_error(r, 400, field));
    }
  }
  // NUL in a field name is an unknown field, not a crash.
  EXPECT_TRUE(is_error(send("POST", "/leads", std::string(R"({"visitor_name":"A","\u0000":1})")),
                       400, "unknown field"));
  EXPECT_TRUE(
      is_error(send("PATCH", "/leads?id=" + lead_, std::string(R"({"visitor_name\u0000":"A"})")),
               400, "unknown field"));
  EXPECT_EQ(snapshot(), before);
  EXPECT_TRUE(server().running());
}

TEST_F(HostileBodiesTest, InvalidUtf8InAnyStringFieldIs400NamingTheField) {
  const json::array before = snapshot();
  const std::vector<std::string> bad = {
      "\xff",              // never valid
      "a\xc3",             // truncated two-byte sequence
      "\xc0\xaf",          // overlong '/'
      "\xed\xa0\x80",      // UTF-16 surrogate encoded in UTF-8
      "\xf4\x90\x80\x80",  // beyond U+10FFFF
      "ok\x80"
      "continued",  // stray continuation byte
  };
  for (const auto& [target, field] : string_fields()) {
    for (std::size_t i = 0; i < bad.size(); ++i) {
      SCOPED_TRACE(target.method + " " + target.path + " " + field + " sequence " +
                   std::to_string(i));
      std::string body = replace_placeholder(body_with_placeholder(target, field), bad[i]);
      HttpResponse r = send(target.method, target.path, body);
      EXPECT_TRUE(is_error(r, 400, field));
      EXPECT_TRUE(is_error(r, 400, "UTF-8"));
    }
  }
  // Inside contact metadata (stored, never echoed) and in a field name.
  const std::string in_metadata = "{\"first_name\":\"A\",\"metadata\":{\"k\":\"\xff\"}}";
  EXPECT_TRUE(is_error(send("POST", "/contacts", in_metadata), 400, "metadata"));
  const std::string in_key = "{\"first_name\":\"A\",\"\xff\":1}";
  EXPECT_TRUE(is_error(send("POST", "/contacts", in_key), 400, "UTF-8"));
  // Lone UTF-16 surrogates written as JSON escapes are not text either.
  for (const std::string& escape :
       {std::string(R"(\ud800)"), std::string(R"(a\udc00b)"), std::string(R"(\ud83d\u0041)")}) {
    SCOPED_TRACE(escape);
    EXPECT_TRUE(is_error(send("POST", "/leads", R"({"visitor_name":")" + escape + "\"}"), 400));
    EXPECT_TRUE(is_error(
        send("PATCH", "/contacts?id=" + contact_, R"({"tags":[")" + escape + "\"]}"), 400));
  }
  EXPECT_EQ(snapshot(), before);
  // A valid astral character (escaped as a surrogate pair) is fine.
  HttpResponse ok = send("POST", "/leads", std::string(R"({"visitor_name":"\ud83d\ude00"})"));
  ASSERT_STATUS(ok, 201u);
  EXPECT_EQ(str(ok.data().at("visitor_name")), "\xf0\x9f\x98\x80");
  EXPECT_TRUE(server().running());
}

TEST_F(HostileBodiesTest, JsonNested10000DeepIs400Anywhere) {
  const std::string open_arrays(10000, '[');
  const std::string close_arrays(10000, ']');
  std::string open_objects;
  std::string close_objects;
  for (int i = 0; i < 10000; ++i) {
    open_objects += R"({"a":)";
    close_objects += '}';
  }
  struct Case {
    std::string method;
    std::string path;
    std::string body;
  };
  const std::vector<Case> cases = {
      {"POST", "/leads", open_arrays + close_arrays},
      {"POST", "/leads", open_objects + "1" + close_objects},
      {"POST", "/leads", R"({"visitor_name":"A","tags":)" + open_arrays + close_arrays + "}"},
      {"POST", "/contacts",
       R"({"first_name":"A","metadata":)" + open_objects + "1" + close_objects + "}"},
      {"POST", "/contacts",
       R"({"first_name":"A","metadata":{"x":)" + open_arrays + close_arrays + "}}"},
      {"PATCH", "/leads?id=" + lead_, R"({"need_summary":)" + open_arrays + close_arrays + "}"},
      {"PATCH", "/contacts?id=" + contact_, open_objects + "1" + close_objects},
      {"PATCH", "/conversations?id=" + conversation_,
       R"({"tags":)" + open_arrays + close_arrays + "}"},
      // Unbalanced: only the openings, as a client that gives up might send.
      {"POST", "/leads", open_arrays},
      {"POST", "/contacts", R"({"first_name":"A","metadata":)" + open_objects},
  };
  const json::array before = snapshot();
  for (const auto& c : cases) {
    SCOPED_TRACE(c.method + " " + c.path + " " + c.body.substr(0, 40));
    EXPECT_TRUE(is_error(send(c.method, c.path, c.body), 400));
  }
  EXPECT_TRUE(is_error(send("POST", "/leads", open_arrays + close_arrays), 400, "nested"));
  EXPECT_EQ(snapshot(), before);

  // The documented limit: 64 levels in all are accepted, 65 are not.
  auto metadata_of_depth = [](int total_depth) {
    std::string body = R"({"first_name":"Deep","metadata":)";
    for (int i = 0; i < total_depth - 1; ++i) body += R"({"a":)";
    body += "1";
    return body + std::string(static_cast<std::size_t>(total_depth), '}');
  };
  EXPECT_STATUS(send("POST", "/contacts", metadata_of_depth(64)), 201u);
  EXPECT_TRUE(is_error(send("POST", "/contacts", metadata_of_depth(65)), 400, "nested"));
  EXPECT_TRUE(server().running());
}

TEST_F(HostileBodiesTest, NumbersBeyondTheDoubleRangeAre400Anywhere) {
  const std::string huge_integer = "1" + std::string(400, '0');
  const std::vector<std::string> numbers = {"1e400",         "-1e400",     "1E309",
                                            "123456789e305", huge_integer, "-" + huge_integer};
  const json::array before = snapshot();
  for (const auto& n : numbers) {
    SCOPED_TRACE(n);
    EXPECT_TRUE(is_error(
        send("POST", "/leads", R"({"visitor_name":"A","expected_billing_amount":)" + n + "}"),
        400));
    EXPECT_TRUE(is_error(
        send("PATCH", "/leads?id=" + lead_, R"({"expected_billing_amount":)" + n + "}"), 400));
    EXPECT_TRUE(is_error(
        send("POST", "/contacts", R"({"first_name":"A","metadata":{"n":[)" + n + "]}}"), 400));
    EXPECT_TRUE(
        is_error(send("POST", "/leads", R"({"visitor_name":"A","tags":[)" + n + "]}"), 400));
  }
  EXPECT_TRUE(is_error(send("POST", "/leads",
                            std::string(R"({"visitor_name":"A","expected_billing_amount":1e400})")),
                       400, "out of range"));
  EXPECT_EQ(snapshot(), before);
  // The largest finite double is a number like any other.
  HttpResponse max = send(
      "POST", "/leads",
      std::string(R"({"visitor_name":"Max","expected_billing_amount":1.7976931348623157e308})"));
  ASSERT_STATUS(max, 201u);
  EXPECT_DOUBLE_EQ(max.data().at("expected_billing_amount").to_number<double>(),
                   1.7976931348623157e308);
}

TEST_F(HostileBodiesTest, NegativeZeroIsReadAsZero) {
  for (const std::string& zero :
       {std::string("-0"), std::string("-0.0"), std::string("-0e5"), std::string("-0.000E-3")}) {
    SCOPED_TRACE(zero);
    HttpResponse created =
        send("POST", "/leads", R"({"visitor_name":"Zero","expected_billing_amount":)" + zero + "}");
    ASSERT_STATUS(created, 201u);
    EXPECT_NE(created.body.find(R"("expected_billing_amount":0)"), std::string::npos)
        << created.body;
    EXPECT_EQ(created.body.find(R"("expected_billing_amount":-)"), std::string::npos)
        << created.body;
    const std::string id = str(created.data().at("id"));
    ASSERT_STATUS(patch("/leads?id=" + id, json::object{{"expected_billing_amount", 5}}), 200u);
    HttpResponse patched =
        send("PATCH", "/leads?id=" + id, R"({"expected_billing_amount":)" + zero + "}");
    ASSERT_STATUS(patched, 200u);
    EXPECT_NE(patched.body.find(R"("expected_billing_amount":0)"), std::string::npos)
        << patched.body;
    HttpResponse fetched = get("/leads?id=" + id);
    ASSERT_STATUS(fetched, 200u);
    EXPECT_EQ(fetched.body.find(R"("expected_billing_amount":-)"), std::string::npos)
        << fetched.body;
    EXPECT_EQ(fetched.data().at("expected_billing_amount").to_number<double>(), 0.0);
  }
}

TEST_F(HostileBodiesTest, DuplicateKeysAre400Anywhere) {
  struct Case {
    std::string method;
    std::string path;
    std::string body;
  };
  const std::vector<Case> cases = {
      {"POST", "/leads", R"({"visitor_name":"A","visitor_name":"B"})"},
      {"POST", "/leads", R"({"visitor_name":"A","tags":[],"tags":["x"]})"},
      // The same key once escaped: keys are compared after decoding.
      {"POST", "/leads", R"({"visitor_name":"A","visitor\u005fname":"B"})"},
      {"POST", "/contacts", R"({"first_name":"A","metadata":{"k":1,"k":1}})"},
      {"POST", "/contacts", R"({"first_name":"A","metadata":{"x":[{"k":1,"k":2}]}})"},
      {"PATCH", "/leads?id=" + lead_, R"({"need_summary":"a","need_summary":"b"})"},
      {"PATCH", "/contacts?id=" + contact_, R"({"email":"a@x.io","email":"b@x.io"})"},
      {"PATCH", "/conversations?id=" + conversation_, R"({"status":"open","status":"archived"})"},
  };
  const json::array before = snapshot();
  for (const auto& c : cases) {
    SCOPED_TRACE(c.method + " " + c.path + " " + c.body);
    EXPECT_TRUE(is_error(send(c.method, c.path, c.body), 400, "duplicate"));
  }
  EXPECT_EQ(snapshot(), before);
  // Keys differing only in case are different keys (and then unknown here).
  EXPECT_TRUE(
      is_error(send("POST", "/leads", std::string(R"({"visitor_name":"A","Visitor_name":"B"})")),
               400, "Visitor_name"));
  // The same key in sibling objects is not a duplicate.
  EXPECT_STATUS(send("POST", "/contacts",
                     std::string(R"({"first_name":"A","metadata":{"x":{"k":1},"y":{"k":1}}})")),
                201u);
}

}  // namespace
}  // namespace leadline_test
