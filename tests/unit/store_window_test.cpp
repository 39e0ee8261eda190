// Lists with a sync window on either side of kMatchDrivenLimit, where the page's plan changes
// (read through the window's index, or walking the sort order): the same rows in the same
// order, by cursor and by offset.
#include <algorithm>
#include <cstdio>

#include "store/sql/list_page.hpp"
#include "store_test_fixture.hpp"

namespace leadline::store::testing {
namespace {

constexpr int kLeads = 700;
constexpr std::int64_t kBase = 1'700'000'000'000;

std::int64_t at(int i) {
  return kBase + i * 1000;
}

class WindowListTest : public StoreTest {
 protected:
  // Lead i: created (and updated) at at(i), named so that name order differs from time order,
  // every third qualified, every seventh without a score.
  void SetUp() override {
    StoreTest::SetUp();
    std::vector<ImportItem> items;
    for (int i = 0; i < kLeads; ++i) {
      domain::NewLead lead;
      char name[16];
      std::snprintf(name, sizeof name, "n%03d", (i * 337) % kLeads);
      lead.visitor_name = name;
      lead.created_at = domain::Timestamp{at(i)};
      if (i % 3 == 0) lead.pipeline_stage = domain::PipelineStage::kQualified;
      if (i % 7 != 0) lead.lead_score = (i * 13) % 50;
      items.push_back({i + 1, lead});
    }
    import_ok(items);
    LeadListQuery all;
    all.page.limit = 100;
    for (int offset = 0; offset < kLeads; offset += 100) {
      all.page.offset = offset;
      for (auto& l : store_->leads().list(ws_, all).items) leads_.push_back(std::move(l));
    }
    ASSERT_EQ(leads_.size(), static_cast<std::size_t>(kLeads));
  }

  // The ids the list should return, computed here.
  std::vector<std::string> expected(const LeadListQuery& q) const {
    std::vector<domain::Lead> kept;
    for (const auto& l : leads_) {
      if (q.stage && l.pipeline_stage != *q.stage) continue;
      if (q.updated.since && l.updated_at < *q.updated.since) continue;
      if (q.updated.before && !(l.updated_at < *q.updated.before)) continue;
      kept.push_back(l);
    }
    const bool asc = q.sort.direction == SortDirection::kAsc;
    std::sort(kept.begin(), kept.end(), [&](const domain::Lead& a, const domain::Lead& b) {
      if (q.sort.field == LeadSortField::kLeadScore && a.lead_score != b.lead_score) {
        if (!a.lead_score || !b.lead_score) return a.lead_score.has_value();  // nulls last
        return asc ? *a.lead_score < *b.lead_score : *b.lead_score < *a.lead_score;
      }
      if (q.sort.field == LeadSortField::kVisitorName && a.visitor_name != b.visitor_name) {
        return asc ? a.visitor_name < b.visitor_name : b.visitor_name < a.visitor_name;
      }
      if (q.sort.field == LeadSortField::kCreatedAt && a.created_at != b.created_at) {
        return asc ? a.created_at < b.created_at : b.created_at < a.created_at;
      }
      if (q.sort.field == LeadSortField::kUpdatedAt && a.updated_at != b.updated_at) {
        return asc ? a.updated_at < b.updated_at : b.updated_at < a.updated_at;
      }
      return asc ? a.id.value < b.id.value : b.id.value < a.id.value;
    });
    std::vector<std::string> ids;
    for (const auto& l : kept) ids.push_back(l.id.value);
    return ids;
  }

  // Every page by cursor, checking total_count on each.
  std::vector<std::string> walk(LeadListQuery q, int limit, std::int64_t total) {
    std::vector<std::string> ids;
    q.page = PageRequest{limit, std::nullopt, 0};
    for (int guard = 0; guard < 100; ++guard) {
      const auto page = store_->leads().list(ws_, q);
      EXPECT_EQ(page.total_count, total);
      for (const auto& l : page.items) ids.push_back(l.id.value);
      if (!page.has_more) return ids;
      q.page.after = page.next_position;
    }
    ADD_FAILURE() << "walk did not end";
    return ids;
  }

  std::vector<domain::Lead> leads_;
};

INSTANTIATE_TEST_SUITE_P(Backends, WindowListTest, all_backends(), backend_name);

TEST_P(WindowListTest, WideAndNarrowWindowsListTheSameRowsByEveryPlan) {
  const std::vector<UpdatedWindow> windows = {
      {domain::Timestamp{at(50)}, domain::Timestamp{at(650)}},   // 600: walks the sort order
      {domain::Timestamp{at(100)}, domain::Timestamp{at(300)}},  // 200: read through its index
      {domain::Timestamp{at(100)}, std::nullopt},
      {std::nullopt, domain::Timestamp{at(600)}},
  };
  bool wide = false;
  bool narrow = false;
  for (const auto& window : windows) {
    for (auto field : {LeadSortField::kCreatedAt, LeadSortField::kVisitorName,
                       LeadSortField::kLeadScore, LeadSortField::kUpdatedAt}) {
      for (auto dir : {SortDirection::kAsc, SortDirection::kDesc}) {
        for (bool qualified : {false, true}) {
          LeadListQuery q;
          q.updated = window;
          q.sort = {field, dir};
          if (qualified) q.stage = domain::PipelineStage::kQualified;
          const auto want = expected(q);
          const auto total = static_cast<std::int64_t>(want.size());
          (total > sql::kMatchDrivenLimit ? wide : narrow) = true;
          SCOPED_TRACE("field " + std::to_string(static_cast<int>(field)) + " dir " +
                       std::to_string(static_cast<int>(dir)) + " qualified " +
                       std::to_string(qualified) + " total " + std::to_string(total));
          EXPECT_EQ(walk(q, 100, total), want);
          EXPECT_EQ(walk(q, 37, total), want);
          q.page = PageRequest{50, std::nullopt, 150};
          const auto page = store_->leads().list(ws_, q);
          std::vector<std::string> got;
          for (const auto& l : page.items) got.push_back(l.id.value);
          EXPECT_EQ(got, std::vector<std::string>(
                             want.begin() + std::min<std::size_t>(150, want.size()),
                             want.begin() + std::min<std::size_t>(200, want.size())));
        }
      }
    }
  }
  EXPECT_TRUE(wide && narrow) << "both plans are exercised";
}

}  // namespace
}  // namespace leadline::store::testing
