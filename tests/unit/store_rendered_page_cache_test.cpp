// The rendered page cache: what a page keeps, and the key that tells every page apart.

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "store/rendered_page_cache.hpp"

namespace leadline::store {
namespace {

TEST(RenderedPageCache, APageGivesBackItsItemsInOrderWithItsFacts) {
  const RenderedPageCache cache(1 << 20);
  RenderedPage page;
  page.version = 7;
  page.add(R"({"id":"a"})");
  page.add("");
  page.add(R"({"id":"b"})");
  page.facts.total_count = 12;
  page.facts.has_more = true;
  page.facts.next_position = KeysetPosition{{std::int64_t{5}}, "b"};
  cache.put("k", std::move(page));

  const RenderedPage* kept = cache.find("k");
  ASSERT_NE(kept, nullptr);
  std::vector<std::string> items;
  kept->each([&](std::string_view item) { items.emplace_back(item); });
  EXPECT_EQ(items, (std::vector<std::string>{R"({"id":"a"})", "", R"({"id":"b"})"}));
  EXPECT_EQ(kept->version, 7);
  EXPECT_EQ(kept->facts.total_count, 12);
  ASSERT_TRUE(kept->facts.next_position);
  EXPECT_EQ(kept->facts.next_position->id, "b");
  EXPECT_EQ(cache.find("other"), nullptr);
}

TEST(RenderedPageCache, PagesBeyondTheBudgetGoLeastRecentlyUsedFirst) {
  const RenderedPageCache cache(64 << 10);
  const auto page_of = [](char c) {
    RenderedPage page;
    page.add(std::string(30 << 10, c));  // two fit the budget, not three
    return page;
  };
  cache.put("a", page_of('a'));
  cache.put("b", page_of('b'));
  ASSERT_NE(cache.find("a"), nullptr);  // now the most recently used
  cache.put("c", page_of('c'));
  EXPECT_NE(cache.find("a"), nullptr);
  EXPECT_EQ(cache.find("b"), nullptr);
  EXPECT_NE(cache.find("c"), nullptr);
}

TEST(RenderedPageCache, KeysTellEveryPageApart) {
  LeadListQuery q;
  const std::string base = lead_page_key("ws", q);
  EXPECT_EQ(base, lead_page_key("ws", q));
  EXPECT_NE(base, lead_page_key("ws2", q));
  std::vector<std::string> keys = {base};
  const auto differs = [&](const LeadListQuery& other) {
    const std::string key = lead_page_key("ws", other);
    for (const auto& seen : keys) EXPECT_NE(key, seen);
    keys.push_back(key);
  };
  LeadListQuery other = q;
  other.search_folded = "ada";
  differs(other);
  other = q;
  other.stage = domain::PipelineStage::kQualified;
  differs(other);
  other = q;
  other.sort.direction = SortDirection::kAsc;
  differs(other);
  other = q;
  other.sort.field = LeadSortField::kVisitorName;
  differs(other);
  other = q;
  other.updated.since = domain::Timestamp{5};
  differs(other);
  other = q;
  other.page.limit = 7;
  differs(other);
  other = q;
  other.page.offset = 50;
  differs(other);
  // Positions: the same values of other kinds, and the same values with another id.
  for (const SortValue& v : std::vector<SortValue>{std::int64_t{5}, 5.0, std::string("5"),
                                                   std::monostate{}, std::string("i5")}) {
    other = q;
    other.page.after = KeysetPosition{{v}, "id"};
    differs(other);
  }
  other = q;
  other.page.after = KeysetPosition{{std::int64_t{5}}, "id2"};
  differs(other);
  other = q;
  other.page.after = KeysetPosition{{}, "id"};
  differs(other);
}

}  // namespace
}  // namespace leadline::store
