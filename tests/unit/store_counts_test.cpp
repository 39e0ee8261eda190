// total_count from the trigger-kept counts (unfiltered and stage/status lists) and from the
// search index (search lists) must equal what a scan would count, through creates, deletes,
// stage and status changes, in every workspace separately.
#include "domain/unicode_text.hpp"
#include "store_test_fixture.hpp"

namespace leadline::store::testing {
namespace {

using domain::ConversationStatus;
using domain::PipelineStage;

std::int64_t lead_count(Database& store, const domain::WorkspaceId& ws,
                        std::optional<PipelineStage> stage = std::nullopt,
                        std::string search = "") {
  LeadListQuery q;
  q.stage = stage;
  q.search_folded = std::move(search);
  q.page.limit = 1;
  return store.leads().list(ws, q).total_count;
}

TEST_P(StoreTest, LeadCountsFollowCreatesDeletesAndStageChanges) {
  std::vector<domain::LeadId> ids;
  for (int i = 0; i < 9; ++i) {
    domain::NewLead n = lead_named("Count " + std::to_string(i));
    n.pipeline_stage = i < 5 ? PipelineStage::kNew : PipelineStage::kLost;
    ids.push_back(store_->leads().create(ws_, n).id);
  }
  store_->leads().create(other_ws_, lead_named("Elsewhere"));
  EXPECT_EQ(lead_count(*store_, ws_), 9);
  EXPECT_EQ(lead_count(*store_, ws_, PipelineStage::kNew), 5);
  EXPECT_EQ(lead_count(*store_, ws_, PipelineStage::kLost), 4);
  EXPECT_EQ(lead_count(*store_, ws_, PipelineStage::kConverted), 0);
  EXPECT_EQ(lead_count(*store_, other_ws_), 1);

  domain::LeadPatch to_converted;
  to_converted.pipeline_stage = PipelineStage::kConverted;
  store_->leads().update(ws_, ids[0], to_converted);
  // A PATCH that leaves the stage alone must not move the count.
  domain::LeadPatch rename;
  rename.visitor_name = "Renamed";
  store_->leads().update(ws_, ids[1], rename);
  ASSERT_TRUE(store_->leads().remove(ws_, ids[8]));
  ASSERT_FALSE(store_->leads().remove(ws_, ids[8]));

  EXPECT_EQ(lead_count(*store_, ws_), 8);
  EXPECT_EQ(lead_count(*store_, ws_, PipelineStage::kNew), 4);
  EXPECT_EQ(lead_count(*store_, ws_, PipelineStage::kLost), 3);
  EXPECT_EQ(lead_count(*store_, ws_, PipelineStage::kConverted), 1);
  EXPECT_EQ(lead_count(*store_, other_ws_), 1);

  // Search counts come from the index, still per workspace and per stage.
  EXPECT_EQ(lead_count(*store_, ws_, std::nullopt, "count"), 7);
  EXPECT_EQ(lead_count(*store_, ws_, PipelineStage::kLost, "count"), 3);
  EXPECT_EQ(lead_count(*store_, ws_, std::nullopt, "renamed"), 1);
  EXPECT_EQ(lead_count(*store_, other_ws_, std::nullopt, "count"), 0);
  EXPECT_EQ(lead_count(*store_, other_ws_, std::nullopt, "elsewh"), 1);
}

TEST_P(StoreTest, ContactCountsFollowCreatesAndDeletes) {
  std::vector<domain::ContactId> ids;
  for (int i = 0; i < 4; ++i) {
    ids.push_back(std::get<domain::Contact>(
                      store_->contacts().create(ws_, contact_named("Person " + std::to_string(i))))
                      .id);
  }
  std::get<domain::Contact>(store_->contacts().create(other_ws_, contact_named("Person x")));
  ASSERT_TRUE(store_->contacts().remove(ws_, ids[2]));
  ContactListQuery q;
  EXPECT_EQ(store_->contacts().list(ws_, q).total_count, 3);
  EXPECT_EQ(store_->contacts().list(other_ws_, q).total_count, 1);
  q.search_folded = "person";
  EXPECT_EQ(store_->contacts().list(ws_, q).total_count, 3);
  q.search_folded = "son 3";
  EXPECT_EQ(store_->contacts().list(ws_, q).total_count, 1);
}

TEST_P(StoreTest, ConversationCountsFollowStatusChanges) {
  std::vector<ImportItem> items;
  for (int i = 0; i < 5; ++i) {
    domain::NewConversation c;
    c.source = "widget";
    c.status = i < 3 ? ConversationStatus::kOpen : ConversationStatus::kPending;
    items.push_back({i + 1, c});
  }
  import_ok(items);
  const auto all = store_->conversations().list(ws_, {});
  ASSERT_EQ(all.total_count, 5);
  domain::ConversationPatch archive;
  archive.status = ConversationStatus::kArchived;
  for (const auto& c : all.items) {
    if (c.status == ConversationStatus::kOpen) {
      store_->conversations().update(ws_, c.id, archive);
      break;
    }
  }
  ConversationListQuery q;
  for (auto [status, expected] :
       {std::pair{ConversationStatus::kOpen, 2}, std::pair{ConversationStatus::kPending, 2},
        std::pair{ConversationStatus::kArchived, 1}, std::pair{ConversationStatus::kActive, 0}}) {
    q.status = status;
    EXPECT_EQ(store_->conversations().list(ws_, q).total_count, expected);
  }
  EXPECT_EQ(store_->conversations().list(other_ws_, {}).total_count, 0);
}

// The index answers needles of three characters or more; shorter ones are scanned. Both must
// agree with substring semantics, quotes included (FTS5 syntax must never leak through).
TEST_P(StoreTest, SearchThroughTheIndexMatchesSubstringsExactly) {
  for (const char* name : {"say \"hi\" now", "abcabc", "xyz", "naïve café", "AND OR NOT"}) {
    store_->leads().create(ws_, lead_named(name));
  }
  using V = std::vector<std::string>;
  const auto names = [&](const char* needle) {
    LeadListQuery q;
    q.search_folded = domain::case_fold(needle);
    q.sort = {LeadSortField::kVisitorName, SortDirection::kAsc};
    V out;
    for (const auto& l : store_->leads().list(ws_, q).items) out.push_back(l.visitor_name);
    return out;
  };
  EXPECT_EQ(names("\"hi\""), V{"say \"hi\" now"});
  EXPECT_EQ(names("\"hi\" n"), V{"say \"hi\" now"});
  EXPECT_EQ(names("cabc"), V{"abcabc"});
  EXPECT_EQ(names("bcab"), V{"abcabc"});
  EXPECT_EQ(names("abcabca"), V{});
  EXPECT_EQ(names("ïve"), V{"naïve café"});
  EXPECT_EQ(names("é"), V{"naïve café"});
  EXPECT_EQ(names("and or"), V{"AND OR NOT"});
  EXPECT_EQ(names("or*"), V{});
  EXPECT_EQ(names("xy"), V{"xyz"});
  EXPECT_EQ(names("xyz"), V{"xyz"});
}

}  // namespace
}  // namespace leadline::store::testing
