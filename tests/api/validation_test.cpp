// Request validation: code-point length limits, required and null rules, the e-mail rule, amounts,
// tags, listed values, unknown and mistyped fields, and malformed bodies (all 400).

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "support/fixture.hpp"

namespace leadline_test {
namespace {

class ValidationTest : public ApiTest {
 protected:
  // A conversation of this test's workspace, for conversation PATCH checks.
  std::string conversation() {
    if (conversation_.empty()) {
      import_lines(ws_.id,
                   {conversation_line({{"first_name", "V"}}, {}, timestamp_from_now(-1000ms))});
      conversation_ = conversation_ids().at(0);
    }
    return conversation_;
  }

  std::string conversation_;
};

struct Limit {
  std::string resource;
  std::string field;
  std::size_t max;
};

const std::vector<Limit> kLimits = {
    {"leads", "visitor_name", 200},    {"leads", "visitor_company", 200},
    {"leads", "visitor_phone", 50},    {"leads", "need_summary", 2000},
    {"leads", "source", 100},          {"contacts", "first_name", 100},
    {"contacts", "last_name", 100},    {"contacts", "phone", 50},
    {"contacts", "company_name", 200}, {"contacts", "profile_notes", 5000},
};

json::object base_body(const std::string& resource) {
  if (resource == "leads") return {{"visitor_name", "Ada"}};
  return {{"first_name", "Ada"}};
}

TEST_F(ValidationTest, LengthLimitsCountCodePointsNotBytes) {
  for (const auto& l : kLimits) {
    SCOPED_TRACE(l.resource + "." + l.field);
    for (const std::string& piece :
         {std::string("a"), std::string("\xc3\xa9"), std::string("\xf0\x9f\x98\x80")}) {
      json::object ok = base_body(l.resource);
      ok[l.field] = repeat(piece, l.max);
      HttpResponse r = post("/" + l.resource, ok);
      EXPECT_STATUS(r, 201u);
      if (r.status == 201) {
        EXPECT_EQ(r.data().as_object().at(l.field), ok[l.field]);
      }

      json::object too_long = base_body(l.resource);
      too_long[l.field] = repeat(piece, l.max + 1);
      EXPECT_TRUE(is_error(post("/" + l.resource, too_long), 400, l.field));
    }
  }
}

TEST_F(ValidationTest, CombiningMarksCountAsSeparateCodePoints) {
  // "e" + U+0301 is one grapheme but two code points.
  EXPECT_STATUS(post("/leads", json::object{{"visitor_name", repeat("e\xcc\x81", 100)}}), 201u);
  EXPECT_TRUE(is_error(post("/leads", json::object{{"visitor_name", repeat("e\xcc\x81", 101)}}),
                       400, "visitor_name"));
}

TEST_F(ValidationTest, LengthLimitsApplyOnPatchToo) {
  std::string lead = str(create_lead({{"visitor_name", "A"}}).at("id"));
  std::string contact = str(create_contact({{"first_name", "A"}}).at("id"));
  for (const auto& l : kLimits) {
    if (l.resource == "leads" && l.field == "source") continue;  // not a PATCH field
    SCOPED_TRACE(l.resource + "." + l.field);
    std::string path = "/" + l.resource + "?id=" + (l.resource == "leads" ? lead : contact);
    EXPECT_STATUS(patch(path, json::object{{l.field, repeat("\xc3\xa9", l.max)}}), 200u);
    EXPECT_TRUE(is_error(patch(path, json::object{{l.field, repeat("\xc3\xa9", l.max + 1)}}), 400,
                         l.field));
  }
}

TEST_F(ValidationTest, RequiredStringsMustBeNonEmptyAfterTrimmingAndNotNull) {
  struct Required {
    std::string resource;
    std::string field;
  };
  for (const Required& req :
       {Required{"leads", "visitor_name"}, Required{"contacts", "first_name"}}) {
    SCOPED_TRACE(req.field);
    EXPECT_TRUE(is_error(post("/" + req.resource, json::object{}), 400, req.field));
    EXPECT_TRUE(is_error(post("/" + req.resource, json::object{{"tags", json::array{"x"}}}), 400,
                         req.field));
    for (const json::value& bad :
         {json::value(""), json::value("   "), json::value(" \t\n "), json::value(nullptr)}) {
      SCOPED_TRACE(json::serialize(bad));
      EXPECT_TRUE(
          is_error(post("/" + req.resource, json::object{{req.field, bad}}), 400, req.field));
    }
    std::string id = str((req.resource == "leads" ? create_lead({{"visitor_name", "A"}})
                                                  : create_contact({{"first_name", "A"}}))
                             .at("id"));
    for (const json::value& bad : {json::value(""), json::value("  "), json::value(nullptr)}) {
      SCOPED_TRACE(json::serialize(bad));
      EXPECT_TRUE(is_error(patch("/" + req.resource + "?id=" + id, json::object{{req.field, bad}}),
                           400, req.field));
    }
  }
  EXPECT_EQ(total_count(get("/leads")), 1);
  EXPECT_EQ(total_count(get("/contacts")), 1);
}

const std::vector<std::string>& valid_emails() {
  static const std::vector<std::string> emails = {
      "a@b.co",
      "user.name+tag@example.com",
      "x@a-b.example",
      "a!#$%&'*+/=?^`{|}~@x.io",
      "\"quoted\"@x.io",
      "a..b@x.io",
      "jos\xc3\xa9@ex\xc3\xa4mple.com",
      "\xe7\x94\xa8\xe6\x88\xb7@\xe4\xbe\x8b\xe3\x81\x88.jp",
      "a@123.456",
      "a@b.c",
      repeat("l", 64) + "@x.io",
      "a@" + repeat("d", 63) + ".io",
      repeat("l", 64) + "@" + repeat("a", 63) + "." + repeat("b", 63) + "." + repeat("c", 61),
      "a@e\xcc\x81x.com",
      "a@xn--bcher-kva.ch",
      "-a-@x.io",
  };
  return emails;
}

const std::vector<std::string>& invalid_emails() {
  static const std::vector<std::string> emails = {
      "",
      "   ",
      "plain",
      "a@b",
      "@b.co",
      "a@",
      "a@@b.co",
      "a@b@c.co",
      "a b@c.co",
      "a\tb@c.co",
      "a\xc2\xa0"
      "b@c.co",  // NO-BREAK SPACE
      "a\xe2\x80\x83"
      "b@c.co",  // EM SPACE
      "a\x01"
      "b@c.co",
      "a\xc2\x85"
      "b@c.co",  // NEXT LINE (control, whitespace)
      "a@-b.co",
      "a@b-.co",
      "a@b..co",
      "a@.b.co",
      "a@b.co.",
      "a@b_c.co",
      "a@b c.co",
      "a@b.c!o",
      repeat("l", 65) + "@x.io",
      "a@" + repeat("d", 64) + ".io",
      repeat("l", 64) + "@" + repeat("a", 63) + "." + repeat("b", 63) + "." + repeat("c", 62),
      "a@b.\xd9\xa1\xd9\xa2",  // ARABIC-INDIC DIGITS: digits, but not 0-9
      "a@b.co\xc2\xb2",        // SUPERSCRIPT TWO
      "a@b.\xf0\x9f\x98\x80",  // emoji
  };
  return emails;
}

TEST_F(ValidationTest, ValidEmailsAreAcceptedOnLeadsAndContacts) {
  int n = 0;
  for (const auto& email : valid_emails()) {
    SCOPED_TRACE(email);
    HttpResponse lead =
        post("/leads", json::object{{"visitor_name", "A"}, {"visitor_email", email}});
    EXPECT_STATUS(lead, 201u);
    if (lead.status == 201) {
      EXPECT_EQ(lead.data().as_object().at("visitor_email"), json::value(email));
    }
    HttpResponse contact = post("/contacts", json::object{{"first_name", "A"}, {"email", email}});
    EXPECT_STATUS(contact, 201u);
    if (contact.status == 201) {
      EXPECT_EQ(contact.data().as_object().at("email"), json::value(email));
    }
    ++n;
  }
  EXPECT_EQ(total_count(get("/contacts")), n);
}

TEST_F(ValidationTest, SurroundingWhitespaceIsTrimmedBeforeTheEmailRule) {
  json::object lead = create_lead({{"visitor_name", "A"}, {"visitor_email", "  a@padded.io \n"}});
  EXPECT_EQ(lead.at("visitor_email"), "a@padded.io");
  json::object contact = create_contact({{"first_name", "A"}, {"email", "\t a@padded.io  "}});
  EXPECT_EQ(contact.at("email"), "a@padded.io");
}

TEST_F(ValidationTest, InvalidEmailsAreRejectedOnLeadsAndContacts) {
  std::string lead = str(create_lead({{"visitor_name", "A"}}).at("id"));
  std::string contact = str(create_contact({{"first_name", "A"}}).at("id"));
  for (const auto& email : invalid_emails()) {
    SCOPED_TRACE(json::serialize(json::value(email)));
    EXPECT_TRUE(
        is_error(post("/leads", json::object{{"visitor_name", "A"}, {"visitor_email", email}}), 400,
                 "visitor_email"));
    EXPECT_TRUE(is_error(post("/contacts", json::object{{"first_name", "A"}, {"email", email}}),
                         400, "email"));
    EXPECT_TRUE(is_error(patch("/leads?id=" + lead, json::object{{"visitor_email", email}}), 400,
                         "visitor_email"));
    EXPECT_TRUE(
        is_error(patch("/contacts?id=" + contact, json::object{{"email", email}}), 400, "email"));
  }
  EXPECT_EQ(total_count(get("/leads")), 1);
  EXPECT_EQ(total_count(get("/contacts")), 1);
}

TEST_F(ValidationTest, ExpectedBillingAmountMustBeAFiniteNonNegativeNumber) {
  for (const json::value& ok :
       {json::value(0), json::value(12.5), json::value(1000000), json::value(0.01)}) {
    SCOPED_TRACE(json::serialize(ok));
    HttpResponse r =
        post("/leads", json::object{{"visitor_name", "A"}, {"expected_billing_amount", ok}});
    ASSERT_STATUS(r, 201u);
    EXPECT_DOUBLE_EQ(r.data().as_object().at("expected_billing_amount").to_number<double>(),
                     ok.to_number<double>());
  }
  std::string id = str(create_lead({{"visitor_name", "A"}}).at("id"));
  for (const json::value& bad :
       {json::value(-1), json::value(-0.01), json::value("100"), json::value(true),
        json::value(json::array{}), json::value(json::object{})}) {
    SCOPED_TRACE(json::serialize(bad));
    EXPECT_TRUE(is_error(
        post("/leads", json::object{{"visitor_name", "A"}, {"expected_billing_amount", bad}}), 400,
        "expected_billing_amount"));
    EXPECT_TRUE(is_error(patch("/leads?id=" + id, json::object{{"expected_billing_amount", bad}}),
                         400, "expected_billing_amount"));
  }
  EXPECT_TRUE(is_error(send("POST", "/leads",
                            std::string(R"({"visitor_name":"A","expected_billing_amount":1e400})")),
                       400));
}

TEST_F(ValidationTest, TagsRulesOnEveryOperationThatTakesTags) {
  std::string lead = str(create_lead({{"visitor_name", "A"}}).at("id"));
  std::string contact = str(create_contact({{"first_name", "A"}}).at("id"));
  std::string conv = conversation();
  struct Target {
    std::string name;
    std::function<HttpResponse(const json::value&)> send;
  };
  std::vector<Target> targets = {
      {"lead POST",
       [&](const json::value& t) {
         return post("/leads", json::object{{"visitor_name", "A"}, {"tags", t}});
       }},
      {"contact POST",
       [&](const json::value& t) {
         return post("/contacts", json::object{{"first_name", "A"}, {"tags", t}});
       }},
      {"lead PATCH",
       [&](const json::value& t) {
         return patch("/leads?id=" + lead, json::object{{"tags", t}});
       }},
      {"contact PATCH",
       [&](const json::value& t) {
         return patch("/contacts?id=" + contact, json::object{{"tags", t}});
       }},
      {"conversation PATCH",
       [&](const json::value& t) {
         return patch("/conversations?id=" + conv, json::object{{"tags", t}});
       }},
  };

  json::array fifty;
  json::array fifty_one;
  json::array fifty_with_dups;
  for (int i = 0; i < 51; ++i) {
    if (i < 50) fifty.push_back(json::value(std::string("t").append(std::to_string(i))));
    fifty_one.push_back(json::value(std::string("t").append(std::to_string(i))));
  }
  fifty_with_dups = fifty;
  fifty_with_dups.push_back(json::value("t0"));
  fifty_with_dups.push_back(json::value(" t1 "));

  for (const auto& target : targets) {
    SCOPED_TRACE(target.name);
    for (const json::value& bad :
         {json::value("vip"), json::value(json::object{{"a", 1}}), json::value(json::array{1}),
          json::value(json::array{nullptr}), json::value(json::array{"ok", 2}),
          json::value(json::array{""}), json::value(json::array{"   "}), json::value(fifty_one),
          json::value(json::array{repeat("\xc3\xa9", 101)}),
          json::value(json::array{json::array{"x"}})}) {
      SCOPED_TRACE(json::serialize(bad).substr(0, 80));
      EXPECT_TRUE(is_error(target.send(bad), 400, "tags"));
    }

    HttpResponse r = target.send(json::array{"b", "a", "b", " a", "c ", "  d  "});
    ASSERT_TRUE(r.status == 200 || r.status == 201) << r.describe();
    EXPECT_EQ(r.data().as_object().at("tags"), (json::array{"b", "a", "c", "d"}));

    r = target.send(fifty);
    ASSERT_TRUE(r.status == 200 || r.status == 201) << r.describe();
    EXPECT_EQ(r.data().as_object().at("tags").as_array().size(), 50u);

    r = target.send(fifty_with_dups);
    ASSERT_TRUE(r.status == 200 || r.status == 201) << r.describe();
    EXPECT_EQ(r.data().as_object().at("tags"), json::value(fifty));

    std::string long_tag = repeat("\xc3\xa9", 100);
    r = target.send(json::array{"  " + long_tag + " "});
    ASSERT_TRUE(r.status == 200 || r.status == 201) << r.describe();
    EXPECT_EQ(r.data().as_object().at("tags"), (json::array{json::value(long_tag)}));
  }
  for (const auto& target : {targets[2], targets[3], targets[4]}) {
    SCOPED_TRACE(target.name + " null");
    EXPECT_TRUE(is_error(target.send(nullptr), 400, "tags"));
  }
}

TEST_F(ValidationTest, PipelineStageOnlyTakesTheListedLowercaseValues) {
  std::string id = str(create_lead({{"visitor_name", "A"}}).at("id"));
  for (const json::value& bad :
       {json::value("New"), json::value("NEW"), json::value("won"), json::value(""),
        json::value(" new"), json::value(1), json::value(json::array{"new"})}) {
    SCOPED_TRACE(json::serialize(bad));
    EXPECT_TRUE(
        is_error(post("/leads", json::object{{"visitor_name", "A"}, {"pipeline_stage", bad}}), 400,
                 "pipeline_stage"));
    EXPECT_TRUE(is_error(patch("/leads?id=" + id, json::object{{"pipeline_stage", bad}}), 400,
                         "pipeline_stage"));
  }
  EXPECT_TRUE(is_error(patch("/leads?id=" + id, json::object{{"pipeline_stage", nullptr}}), 400,
                       "pipeline_stage"));
  EXPECT_EQ(get_one("leads", id).at("pipeline_stage"), "new");
}

TEST_F(ValidationTest, UnknownOrNotAcceptedBodyFieldsAreNamed) {
  std::string lead = str(create_lead({{"visitor_name", "A"}}).at("id"));
  std::string contact = str(create_contact({{"first_name", "A"}}).at("id"));
  for (const char* f : {"foo", "lead_score", "assigned_rep_id", "id", "created_at", "updated_at",
                        "rep_first_name", "metadata", "Visitor_Name"}) {
    SCOPED_TRACE(std::string("lead POST ") + f);
    EXPECT_TRUE(is_error(post("/leads", json::object{{"visitor_name", "A"}, {f, "x"}}), 400, f));
  }
  for (const char* f :
       {"foo", "source", "lead_score", "id", "created_at", "updated_at", "rep_email", "metadata"}) {
    SCOPED_TRACE(std::string("lead PATCH ") + f);
    EXPECT_TRUE(is_error(patch("/leads?id=" + lead, json::object{{f, "x"}}), 400, f));
  }
  for (const char* f : {"foo", "id", "created_at", "avatar_url", "interest_summary",
                        "last_activity", "conversation_count", "updated_at"}) {
    SCOPED_TRACE(std::string("contact POST ") + f);
    EXPECT_TRUE(is_error(post("/contacts", json::object{{"first_name", "A"}, {f, "x"}}), 400, f));
  }
  for (const char* f : {"foo", "metadata", "id", "created_at", "avatar_url", "updated_at"}) {
    SCOPED_TRACE(std::string("contact PATCH ") + f);
    EXPECT_TRUE(is_error(patch("/contacts?id=" + contact, json::object{{f, "x"}}), 400, f));
  }
  EXPECT_EQ(total_count(get("/leads")), 1);
  EXPECT_EQ(total_count(get("/contacts")), 1);
  EXPECT_EQ(get_one("leads", lead).at("source"), "api");
}

TEST_F(ValidationTest, WrongJsonTypesAreRejected) {
  struct Case {
    std::string resource;
    std::string field;
    json::value value;
  };
  const std::vector<Case> cases = {
      {"leads", "visitor_name", 5},
      {"leads", "visitor_email", 5},
      {"leads", "visitor_phone", 5},
      {"leads", "visitor_company", true},
      {"leads", "need_summary", json::array{}},
      {"leads", "source", json::object{}},
      {"contacts", "first_name", 1},
      {"contacts", "last_name", false},
      {"contacts", "email", 3},
      {"contacts", "phone", 1},
      {"contacts", "company_name", json::array{}},
      {"contacts", "profile_notes", json::object{}},
  };
  std::string lead = str(create_lead({{"visitor_name", "A"}}).at("id"));
  std::string contact = str(create_contact({{"first_name", "A"}}).at("id"));
  for (const auto& c : cases) {
    SCOPED_TRACE(c.resource + "." + c.field + " = " + json::serialize(c.value));
    json::object body = base_body(c.resource);
    body[c.field] = c.value;
    EXPECT_TRUE(is_error(post("/" + c.resource, body), 400, c.field));
    std::string id = c.resource == "leads" ? lead : contact;
    EXPECT_TRUE(is_error(patch("/" + c.resource + "?id=" + id, json::object{{c.field, c.value}}),
                         400, c.field));
  }
}

TEST_F(ValidationTest, BodiesThatAreNotJsonObjectsAreRejected) {
  std::string lead = str(create_lead({{"visitor_name", "A"}}).at("id"));
  for (const std::string& body :
       {std::string("{"), std::string("visitor_name=Ada"), std::string(""), std::string("[]"),
        std::string("\"x\""), std::string("42"), std::string("null"), std::string("true"),
        std::string(R"([{"visitor_name":"A"}])"), std::string(R"({"visitor_name":"A"} x)"),
        std::string(R"({"visitor_name":"A",})"), std::string("{'visitor_name':'A'}")}) {
    SCOPED_TRACE(body);
    EXPECT_TRUE(is_error(send("POST", "/leads", body), 400));
    EXPECT_TRUE(is_error(send("POST", "/contacts", body), 400));
    EXPECT_TRUE(is_error(send("PATCH", "/leads?id=" + lead, body), 400));
  }
  EXPECT_EQ(total_count(get("/leads")), 1);
  EXPECT_EQ(total_count(get("/contacts")), 0);
}

// A syntax error is located: the byte offset and what the JSON grammar allowed there.
TEST_F(ValidationTest, MalformedJsonNamesTheByteAndWhatWasExpected) {
  EXPECT_TRUE(is_error(send("POST", "/leads", R"({"visitor_name":"A" "tags":[]})"), 400,
                       "request body is not valid JSON at byte 20: expected ',' or '}'"));
  EXPECT_TRUE(is_error(send("POST", "/contacts", R"({"first_name":"A",})"), 400,
                       "request body is not valid JSON at byte 18: expected a key in double "
                       "quotes (no ',' before '}')"));
  EXPECT_TRUE(is_error(send("POST", "/leads", R"({"visitor_name":"A")"), 400,
                       "request body is not valid JSON at byte 19: expected ',' or '}', but the "
                       "request body ends there"));
  EXPECT_EQ(total_count(get("/leads")), 0);
}

TEST_F(ValidationTest, BodyMustBeSentAsApplicationJson) {
  std::string lead = str(create_lead({{"visitor_name", "A"}}).at("id"));
  const std::string body = R"({"visitor_name":"B"})";
  for (const std::string& type : {std::string("text/plain"), std::string(""),
                                  std::string("application/x-www-form-urlencoded"),
                                  std::string("application/jsonx"), std::string("text/json")}) {
    SCOPED_TRACE("Content-Type: " + type);
    EXPECT_TRUE(is_error(send("POST", "/leads", body, {{"Content-Type", type}}), 400));
    EXPECT_TRUE(is_error(send("PATCH", "/leads?id=" + lead, body, {{"Content-Type", type}}), 400));
  }
  for (const std::string& type : {std::string("application/json; charset=utf-8"),
                                  std::string("application/json;charset=utf-8")}) {
    SCOPED_TRACE("Content-Type: " + type);
    EXPECT_STATUS(send("POST", "/leads", body, {{"Content-Type", type}}), 201u);
    EXPECT_STATUS(send("PATCH", "/leads?id=" + lead, body, {{"Content-Type", type}}), 200u);
  }
  EXPECT_EQ(total_count(get("/leads")), 3);
}

TEST_F(ValidationTest, InvalidUtf8IsRejected) {
  for (const std::string& bad : {std::string("\xff"), std::string("\xc3"), std::string("\xc0\xaf"),
                                 std::string("\xed\xa0\x80"),
                                 std::string("a\x80"
                                             "b"),
                                 std::string("\xf8\x88\x80\x80\x80")}) {
    SCOPED_TRACE(bad.size());
    EXPECT_TRUE(is_error(send("POST", "/leads", "{\"visitor_name\":\"" + bad + "\"}"), 400));
    EXPECT_TRUE(is_error(send("POST", "/contacts", "{\"first_name\":\"A" + bad + "\"}"), 400));
    EXPECT_TRUE(
        is_error(send("POST", "/leads", "{\"visitor_name\":\"A\",\"" + bad + "\":1}"), 400));
  }
  EXPECT_EQ(total_count(get("/leads")), 0);
}

TEST_F(ValidationTest, ReferenceIdsMustBeUuidsOfTheWorkspaceOrNull) {
  std::string lead = str(create_lead({{"visitor_name", "A"}}).at("id"));
  std::string conv = conversation();
  EXPECT_STATUS(patch("/leads?id=" + lead, json::object{{"assigned_rep_id", nullptr}}), 200u);
  EXPECT_STATUS(patch("/conversations?id=" + conv, json::object{{"agent_id", nullptr}}), 200u);
  EXPECT_STATUS(patch("/conversations?id=" + conv, json::object{{"department_id", nullptr}}), 200u);
  EXPECT_TRUE(is_error(patch("/leads?id=" + lead, json::object{{"assigned_rep_id", "x"}}), 400,
                       "assigned_rep_id"));
  EXPECT_TRUE(is_error(patch("/conversations?id=" + conv, json::object{{"agent_id", ""}}), 400,
                       "agent_id"));
  EXPECT_TRUE(is_error(patch("/conversations?id=" + conv, json::object{{"department_id", 1}}), 400,
                       "department_id"));
}

}  // namespace
}  // namespace leadline_test
