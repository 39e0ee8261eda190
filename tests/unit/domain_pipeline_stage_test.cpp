// Unit tests for domain/pipeline_stage: the closed sets of stages and statuses.
#include "domain/pipeline_stage.hpp"

#include <gtest/gtest.h>

namespace leadline::domain {
namespace {

TEST(PipelineStage, ParsesEveryListedValueAndRoundTrips) {
  const std::pair<const char*, PipelineStage> cases[] = {{"new", PipelineStage::kNew},
                                                         {"qualified", PipelineStage::kQualified},
                                                         {"assigned", PipelineStage::kAssigned},
                                                         {"contacted", PipelineStage::kContacted},
                                                         {"converted", PipelineStage::kConverted},
                                                         {"lost", PipelineStage::kLost}};
  for (const auto& [text, stage] : cases) {
    EXPECT_EQ(parse_pipeline_stage(text), stage) << text;
    EXPECT_EQ(to_string(stage), text);
  }
}

TEST(PipelineStage, RejectsAnythingElse) {
  for (const char* text : {"", "New", "NEW", " new", "new ", "won", "all", "qualify"}) {
    EXPECT_FALSE(parse_pipeline_stage(text)) << text;
  }
}

TEST(ConversationStatus, ParsesEveryListedValueAndRoundTrips) {
  const std::pair<const char*, ConversationStatus> cases[] = {
      {"open", ConversationStatus::kOpen},
      {"pending", ConversationStatus::kPending},
      {"active", ConversationStatus::kActive},
      {"archived", ConversationStatus::kArchived}};
  for (const auto& [text, status] : cases) {
    EXPECT_EQ(parse_conversation_status(text), status) << text;
    EXPECT_EQ(to_string(status), text);
  }
}

TEST(ConversationStatus, AllIsAFilterValueNotAStatus) {
  EXPECT_FALSE(parse_conversation_status("all"));
  for (const char* text : {"", "Open", "OPEN", "closed", " open"}) {
    EXPECT_FALSE(parse_conversation_status(text)) << text;
  }
}

TEST(ValueLists, NameEveryValue) {
  for (const char* text : {"new", "qualified", "assigned", "contacted", "converted", "lost"}) {
    EXPECT_NE(kPipelineStageList.find(text), std::string_view::npos);
  }
  for (const char* text : {"open", "pending", "active", "archived"}) {
    EXPECT_NE(kConversationStatusList.find(text), std::string_view::npos);
  }
}

}  // namespace
}  // namespace leadline::domain
