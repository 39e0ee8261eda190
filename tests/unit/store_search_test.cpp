// Search (Unicode case folding, %, _ and \ taken literally), the stage and tag filters, and
// total_count under filters.
#include "domain/unicode_text.hpp"
#include "store_test_fixture.hpp"

namespace leadline::store::testing {
namespace {

std::vector<std::string> lead_names(Database& store, const domain::WorkspaceId& ws,
                                    LeadListQuery q) {
  q.sort = {LeadSortField::kVisitorName, SortDirection::kAsc};
  std::vector<std::string> names;
  for (const auto& l : store.leads().list(ws, q).items) names.push_back(l.visitor_name);
  return names;
}

std::vector<std::string> search_leads(Database& store, const domain::WorkspaceId& ws,
                                      std::string_view needle) {
  LeadListQuery q;
  q.search_folded = domain::case_fold(needle);
  return lead_names(store, ws, q);
}

TEST_P(StoreTest, LeadSearchFoldsCaseAndTakesWildcardsLiterally) {
  for (const char* name : {"Müller", "école", "100% sure", "a_b", "back\\slash", "plain", "ab"}) {
    store_->leads().create(ws_, lead_named(name));
  }
  using V = std::vector<std::string>;
  EXPECT_EQ(search_leads(*store_, ws_, "müller"), V{"Müller"});
  EXPECT_EQ(search_leads(*store_, ws_, "MÜLLER"), V{"Müller"});
  EXPECT_EQ(search_leads(*store_, ws_, "ÉCOLE"), V{"école"});
  EXPECT_EQ(search_leads(*store_, ws_, "%"), V{"100% sure"});
  EXPECT_EQ(search_leads(*store_, ws_, "_"), V{"a_b"});
  EXPECT_EQ(search_leads(*store_, ws_, "\\"), V{"back\\slash"});
  EXPECT_EQ(search_leads(*store_, ws_, "a%"), V{});
  EXPECT_EQ(search_leads(*store_, ws_, "a_"), V{"a_b"});
  EXPECT_EQ(search_leads(*store_, ws_, "nothing"), V{});
  EXPECT_EQ(search_leads(*store_, other_ws_, "plain"), V{});
}

TEST_P(StoreTest, LeadSearchCoversEmailAndCompanyNotPhone) {
  domain::NewLead n = lead_named("Ada");
  n.visitor_email = "ADA@Engines.io";
  n.visitor_company = "Analytical";
  n.visitor_phone = "555-0199";
  const auto lead = store_->leads().create(ws_, n);
  store_->leads().create(ws_, lead_named("Bob"));
  using V = std::vector<std::string>;
  EXPECT_EQ(search_leads(*store_, ws_, "engines"), V{"Ada"});
  EXPECT_EQ(search_leads(*store_, ws_, "ANALYT"), V{"Ada"});
  EXPECT_EQ(search_leads(*store_, ws_, "555"), V{});

  // PATCH keeps the search text current.
  domain::LeadPatch p;
  p.visitor_company = domain::FieldUpdate<std::string>::set("Difference");
  store_->leads().update(ws_, lead.id, p);
  EXPECT_EQ(search_leads(*store_, ws_, "analyt"), V{});
  EXPECT_EQ(search_leads(*store_, ws_, "differ"), V{"Ada"});
}

TEST_P(StoreTest, LeadStageFilterAndTotalCount) {
  for (int i = 0; i < 7; ++i) {
    domain::NewLead n = lead_named(std::string("L").append(std::to_string(i)));
    n.pipeline_stage = i % 2 ? domain::PipelineStage::kLost : domain::PipelineStage::kNew;
    store_->leads().create(ws_, n);
  }
  LeadListQuery q;
  q.stage = domain::PipelineStage::kLost;
  q.page.limit = 2;
  const auto page = store_->leads().list(ws_, q);
  EXPECT_EQ(page.total_count, 3);
  EXPECT_EQ(page.items.size(), 2u);
  EXPECT_TRUE(page.has_more);
  for (const auto& l : page.items) EXPECT_EQ(l.pipeline_stage, domain::PipelineStage::kLost);
  q.search_folded = "l1";
  EXPECT_EQ(store_->leads().list(ws_, q).total_count, 1);
}

// Leads of two workspaces written in turn (created, imported, deleted): a search counts and
// lists its own workspace's matches only, with and without another filter. On SQLite the
// count reads the trigram index alone, within the workspace's rowid range (migration 0009).
TEST_P(StoreTest, LeadSearchKeepsToItsWorkspaceAcrossInterleavedWrites) {
  std::vector<domain::LeadId> mine;
  for (int i = 0; i < 6; ++i) {
    mine.push_back(store_->leads().create(ws_, lead_named("Zephyr " + std::to_string(i))).id);
    store_->leads().create(other_ws_, lead_named("Zephyr other " + std::to_string(i)));
    store_->leads().create(ws_, lead_named("Plain " + std::to_string(i)));
  }
  domain::NewLead lost = lead_named("Zephyr imported");
  lost.pipeline_stage = domain::PipelineStage::kLost;
  import_ok({{1, lost}, {2, lead_named("Imported plain")}});
  store_->leads().create(other_ws_, lead_named("Zephyr other last"));
  EXPECT_TRUE(store_->leads().remove(ws_, mine.front()));

  LeadListQuery q;
  q.search_folded = "zephyr";
  q.page.limit = 4;
  auto page = store_->leads().list(ws_, q);
  EXPECT_EQ(page.total_count, 6);
  EXPECT_EQ(page.items.size(), 4u);
  for (const auto& l : page.items) EXPECT_EQ(l.visitor_name.find("other"), std::string::npos);
  EXPECT_EQ(store_->leads().list(other_ws_, q).total_count, 7);
  q.search_folded = "zephyr other";
  EXPECT_EQ(store_->leads().list(ws_, q).total_count, 0);
  q.search_folded = "zephyr";
  q.stage = domain::PipelineStage::kLost;
  EXPECT_EQ(store_->leads().list(ws_, q).total_count, 1);
  EXPECT_EQ(store_->leads().list(other_ws_, q).total_count, 0);
}

TEST_P(StoreTest, ContactSearchCoversEveryFieldIncludingPhone) {
  domain::NewContact n = contact_named("Ada", "ada@x.io");
  n.last_name = "LOVELACE";
  n.phone = "+44 20";
  n.company_name = "Straße AG";
  std::get<domain::Contact>(store_->contacts().create(ws_, n));
  std::get<domain::Contact>(store_->contacts().create(ws_, contact_named("Bob")));
  // U+1E9E (capital sharp s) folds to ß.
  for (const char* needle : {"ada", "lovelace", "ADA@X", "+44", "STRA\u1E9EE"}) {
    ContactListQuery q;
    q.search_folded = domain::case_fold(needle);
    const auto page = store_->contacts().list(ws_, q);
    ASSERT_EQ(page.total_count, 1) << needle;
    EXPECT_EQ(page.items[0].first_name, "Ada");
  }
}

TEST_P(StoreTest, ContactTagFilterIsExactAndCaseSensitive) {
  domain::NewContact a = contact_named("A");
  a.tags = {"vip", "has \"quotes\"", "ünïcode"};
  domain::NewContact b = contact_named("B");
  b.tags = {"VIP", "vip-ish"};
  std::get<domain::Contact>(store_->contacts().create(ws_, a));
  std::get<domain::Contact>(store_->contacts().create(ws_, b));
  const auto count = [&](const char* tag) {
    ContactListQuery q;
    q.tag = tag;
    return store_->contacts().list(ws_, q).total_count;
  };
  EXPECT_EQ(count("vip"), 1);
  EXPECT_EQ(count("VIP"), 1);
  EXPECT_EQ(count("vi"), 0);
  EXPECT_EQ(count("has \"quotes\""), 1);
  EXPECT_EQ(count("ünïcode"), 1);
  EXPECT_EQ(count("none"), 0);
}

}  // namespace
}  // namespace leadline::store::testing
