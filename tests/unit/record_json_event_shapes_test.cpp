// Event bodies and previous_attributes: only the PATCH body fields that changed, with their
// earlier values; nothing at all when none changed.
#include <boost/json/parse.hpp>

#include "record_json/event_shapes.hpp"

namespace leadline::record_json {
namespace {

namespace json = boost::json;

domain::Lead a_lead() {
  domain::Lead l;
  l.id.value = "01900000-0000-7000-8000-000000000001";
  l.visitor_name = "Ada";
  l.tags = {"a"};
  return l;
}

TEST(EventShapes, PreviousAttributesListOnlyChangedBodyFields) {
  const domain::Lead before = a_lead();
  domain::Lead after = before;
  after.pipeline_stage = domain::PipelineStage::kQualified;
  after.tags = {"a", "b"};
  after.visitor_email = "ada@example.com";
  after.updated_at = {before.updated_at.unix_ms + 5};  // derived: never listed
  after.rep = domain::RepSummary{"R", "S", "r@example.com"};
  EXPECT_EQ(json::parse(previous_attributes(before, after)),
            json::parse(R"({"visitor_email":null,"pipeline_stage":"new","tags":["a"]})"));
  EXPECT_EQ(previous_attributes(before, before), "");
}

TEST(EventShapes, ConversationChangesListTheirIds) {
  domain::Conversation before;
  before.agent_id = domain::AgentId{"01900000-0000-7000-8000-00000000000a"};
  domain::Conversation after = before;
  after.agent_id.reset();
  after.status = domain::ConversationStatus::kArchived;
  EXPECT_EQ(json::parse(previous_attributes(before, after)),
            json::parse(R"({"status":"open","agent_id":"01900000-0000-7000-8000-00000000000a"})"));
}

TEST(EventShapes, TheBodyCarriesPreviousAttributesOnlyWhenGiven) {
  const auto created =
      json::parse(event_body("e1", "lead.created", {0}, lead_data(a_lead()), {})).as_object();
  EXPECT_EQ(created.at("type"), "lead.created");
  EXPECT_EQ(created.at("timestamp"), "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(created.at("data").at("visitor_name"), "Ada");
  EXPECT_FALSE(created.contains("previous_attributes"));
  const auto updated =
      json::parse(event_body("e2", "lead.updated", {0}, "{}", R"({"tags":[]})")).as_object();
  EXPECT_EQ(updated.at("previous_attributes"), json::parse(R"({"tags":[]})"));
}

}  // namespace
}  // namespace leadline::record_json
