// Request-body decoders: field sets per operation, null rules, limits, types.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include "api/record_bodies.hpp"

namespace leadline::api {
namespace {

boost::json::object obj(std::string_view text) {
  return boost::json::parse(text).as_object();
}

template <class T>
std::string error_of(const Decoded<T>& d) {
  return std::holds_alternative<BadRequest>(d) ? std::get<BadRequest>(d).message : "";
}

std::string repeat(std::string_view s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out.append(s);
  return out;
}

TEST(LeadBody, CreateDefaultsAndValues) {
  auto d = decode_lead_create(
      obj(R"({"visitor_name":"Ada","tags":[" a","a","b"],"visitor_email":" Ada@X.io "})"));
  ASSERT_EQ(error_of(d), "");
  const auto& lead = std::get<domain::NewLead>(d);
  EXPECT_EQ(lead.source, "api");
  EXPECT_EQ(lead.need_summary, "");
  EXPECT_EQ(lead.pipeline_stage, domain::PipelineStage::kNew);
  EXPECT_EQ(lead.tags, (domain::Tags{"a", "b"}));
  EXPECT_EQ(*lead.visitor_email, "Ada@X.io");
  EXPECT_FALSE(lead.expected_billing_amount.has_value());
}

TEST(LeadBody, CountsCodePointsNotBytes) {
  EXPECT_EQ(error_of(decode_lead_create(obj("{\"visitor_name\":\"" + repeat("é", 200) + "\"}"))),
            "");
  EXPECT_NE(error_of(decode_lead_create(obj("{\"visitor_name\":\"" + repeat("é", 201) + "\"}")))
                .find("visitor_name"),
            std::string::npos);
}

TEST(LeadBody, RequiredAndNullRules) {
  EXPECT_NE(error_of(decode_lead_create(obj(R"({})"))).find("visitor_name is required"),
            std::string::npos);
  EXPECT_NE(error_of(decode_lead_create(obj(R"({"visitor_name":"  "})"))).find("visitor_name"),
            std::string::npos);
  EXPECT_NE(error_of(decode_lead_create(obj(R"({"visitor_name":null})"))).find("visitor_name"),
            std::string::npos);
  EXPECT_EQ(error_of(decode_lead_create(obj(R"({"visitor_name":"A","visitor_phone":null})"))), "");
  EXPECT_NE(error_of(decode_lead_create(obj(R"({"visitor_name":"A","pipeline_stage":null})"))), "");
  EXPECT_NE(error_of(decode_lead_create(obj(R"({"visitor_name":"A","tags":null})"))), "");
  EXPECT_NE(error_of(decode_lead_patch(obj(R"({"visitor_name":null})"))), "");
  auto patch = std::get<domain::LeadPatch>(decode_lead_patch(obj(R"({"visitor_phone":null})")));
  EXPECT_TRUE(patch.visitor_phone.present);
  EXPECT_FALSE(patch.visitor_phone.value.has_value());
}

TEST(LeadBody, RejectsFieldsTheOperationDoesNotTake) {
  for (const char* f : {"lead_score", "assigned_rep_id", "id", "created_at", "updated_at", "x"}) {
    std::string body = std::string(R"({"visitor_name":"A",")") + f + R"(":null})";
    EXPECT_NE(error_of(decode_lead_create(obj(body))).find(std::string("'") + f + "'"),
              std::string::npos)
        << f;
  }
  EXPECT_NE(error_of(decode_lead_patch(obj(R"({"source":"x"})"))).find("'source'"),
            std::string::npos);
  EXPECT_NE(error_of(decode_lead_patch(obj(R"({"lead_score":1})"))).find("'lead_score'"),
            std::string::npos);
}

TEST(LeadBody, AmountRules) {
  EXPECT_EQ(
      error_of(decode_lead_create(obj(R"({"visitor_name":"A","expected_billing_amount":0})"))), "");
  EXPECT_EQ(
      error_of(decode_lead_create(obj(R"({"visitor_name":"A","expected_billing_amount":12.5})"))),
      "");
  EXPECT_NE(
      error_of(decode_lead_create(obj(R"({"visitor_name":"A","expected_billing_amount":-1})"))),
      "");
  EXPECT_NE(
      error_of(decode_lead_create(obj(R"({"visitor_name":"A","expected_billing_amount":"5"})"))),
      "");
}

TEST(LeadBody, StageMustBeExactLowercase) {
  EXPECT_EQ(error_of(decode_lead_patch(obj(R"({"pipeline_stage":"qualified"})"))), "");
  EXPECT_NE(error_of(decode_lead_patch(obj(R"({"pipeline_stage":"Qualified"})"))), "");
  EXPECT_NE(error_of(decode_lead_patch(obj(R"({"pipeline_stage":1})"))), "");
}

TEST(LeadBody, RepIdMustBeUuidOrNull) {
  EXPECT_EQ(error_of(decode_lead_patch(obj(R"({"assigned_rep_id":null})"))), "");
  EXPECT_EQ(error_of(decode_lead_patch(
                obj(R"({"assigned_rep_id":"01890A5D-AC96-774B-BCCE-B302099A8057"})"))),
            "");
  EXPECT_NE(error_of(decode_lead_patch(obj(R"({"assigned_rep_id":"nope"})"))), "");
  EXPECT_NE(error_of(decode_lead_patch(obj(R"({"assigned_rep_id":5})"))), "");
}

TEST(ContactBody, MetadataOnCreateOnly) {
  auto d = decode_contact_create(obj(R"({"first_name":"Ada","metadata":{"plan":"pro"}})"));
  ASSERT_EQ(error_of(d), "");
  EXPECT_EQ(*std::get<domain::NewContact>(d).metadata_json, R"({"plan":"pro"})");
  EXPECT_NE(error_of(decode_contact_create(obj(R"({"first_name":"Ada","metadata":[1]})"))), "");
  EXPECT_NE(error_of(decode_contact_patch(obj(R"({"metadata":{}})"))).find("metadata"),
            std::string::npos);
}

TEST(ContactBody, EmailAndLimits) {
  EXPECT_NE(
      error_of(decode_contact_create(obj(R"({"first_name":"A","email":"a@b"})"))).find("email"),
      std::string::npos);
  EXPECT_NE(error_of(decode_contact_create(
                obj("{\"first_name\":\"A\",\"profile_notes\":\"" + repeat("x", 5001) + "\"}"))),
            "");
  EXPECT_EQ(error_of(decode_contact_create(
                obj("{\"first_name\":\"A\",\"profile_notes\":\"" + repeat("x", 5000) + "\"}"))),
            "");
}

TEST(ConversationBody, StatusAllIsNotAStatus) {
  EXPECT_NE(error_of(decode_conversation_patch(obj(R"({"status":"all"})"))), "");
  EXPECT_EQ(error_of(decode_conversation_patch(obj(R"({"status":"archived","agent_id":null})"))),
            "");
  EXPECT_NE(error_of(decode_conversation_patch(obj(R"({"status":null})"))), "");
  EXPECT_NE(error_of(decode_conversation_patch(obj(R"({"source":"x"})"))).find("'source'"),
            std::string::npos);
}

TEST(Bodies, WrongTypesAndNulCharacters) {
  EXPECT_NE(error_of(decode_contact_create(obj(R"({"first_name":5})"))), "");
  EXPECT_NE(error_of(decode_contact_create(obj(R"({"first_name":"A","tags":"a"})"))), "");
  EXPECT_NE(error_of(decode_contact_create(obj(R"({"first_name":"A","tags":[1]})"))), "");
  EXPECT_NE(error_of(decode_contact_create(obj(R"({"first_name":"A\u0000B"})"))).find("NUL"),
            std::string::npos);
}

}  // namespace
}  // namespace leadline::api
