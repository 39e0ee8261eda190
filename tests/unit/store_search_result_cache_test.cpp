// The search result cache on its own: a cursor position placed among the matches as SQLite's
// keyset condition places it (NULLs last both ways, ties by id), and the byte budget.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "store/search_result_cache.hpp"

namespace leadline::store {
namespace {

// Matches ordered by a nullable score, `direction`, ties by id: as the database returns them.
SearchResult scores(SortDirection direction) {
  SearchResult r(1);
  const bool asc = direction == SortDirection::kAsc;
  const std::vector<std::pair<SortValue, std::string>> asc_rows = {
      {std::int64_t{1}, "a"}, {2.5, "a"},         {2.5, "b"},
      {std::int64_t{7}, "c"}, {SortValue{}, "a"}, {SortValue{}, "d"}};
  const std::vector<std::pair<SortValue, std::string>> desc_rows = {
      {std::int64_t{7}, "c"}, {2.5, "b"},         {2.5, "a"},
      {std::int64_t{1}, "a"}, {SortValue{}, "d"}, {SortValue{}, "a"}};
  std::int64_t rowid = 0;
  for (const auto& [value, id] : asc ? asc_rows : desc_rows) r.add(++rowid, id, {value});
  return r;
}

KeysetPosition at(SortValue value, std::string id) {
  return {{std::move(value)}, std::move(id)};
}

TEST(SearchResultCache, PositionsAreStrictlyAfterInEitherDirectionWithNullsLast) {
  const SearchResult asc = scores(SortDirection::kAsc);
  EXPECT_EQ(asc.first_after(at(2.5, "a"), SortDirection::kAsc), 2u);
  EXPECT_EQ(asc.first_after(at(std::int64_t{2}, "z"), SortDirection::kAsc), 1u);
  EXPECT_EQ(asc.first_after(at(std::int64_t{7}, "c"), SortDirection::kAsc), 4u);
  EXPECT_EQ(asc.first_after(at(SortValue{}, "a"), SortDirection::kAsc), 5u);
  EXPECT_EQ(asc.first_after(at(SortValue{}, "d"), SortDirection::kAsc), 6u);
  const SearchResult desc = scores(SortDirection::kDesc);
  EXPECT_EQ(desc.first_after(at(2.5, "b"), SortDirection::kDesc), 2u);
  EXPECT_EQ(desc.first_after(at(std::int64_t{100}, "a"), SortDirection::kDesc), 0u);
  EXPECT_EQ(desc.first_after(at(std::int64_t{1}, "a"), SortDirection::kDesc), 4u);
  EXPECT_EQ(desc.first_after(at(SortValue{}, "d"), SortDirection::kDesc), 5u);
  // A position of another kind or key count is the database's to answer.
  EXPECT_FALSE(asc.first_after(at(std::string("x"), "a"), SortDirection::kAsc));
  EXPECT_FALSE(asc.first_after({{}, "a"}, SortDirection::kAsc));
  const KeysetPosition p = asc.position(2);
  EXPECT_EQ(p.id, "b");
  EXPECT_EQ(p.values, std::vector<SortValue>{2.5});
}

TEST(SearchResultCache, TextComparesBytewise) {
  SearchResult r(1);
  r.add(1, "x", {std::string("Zed")});
  r.add(2, "x", {std::string("alice")});
  r.add(3, "x", {std::string("\xc3\xa9mile")});
  EXPECT_EQ(r.first_after(at(std::string("a"), "x"), SortDirection::kAsc), 1u);
  EXPECT_EQ(r.first_after(at(std::string("b"), "x"), SortDirection::kAsc), 2u);
}

CachedSearch matches(int n) {
  auto r = std::make_shared<SearchResult>(1);
  for (int i = 0; i < n; ++i) r->add(i, "01234567-89ab-cdef-0123-456789abcdef", {std::int64_t{i}});
  return {n, r};
}

TEST(SearchResultCache, LeastRecentlyUsedGoFirstWithinTheBudget) {
  const SearchResultCache cache(64 * 1024);
  cache.put("a", matches(100));
  cache.put("b", matches(100));
  ASSERT_TRUE(cache.find("a"));  // now b is the least recently used
  for (int i = 0; i < 6; ++i) cache.put("c" + std::to_string(i), matches(100));
  EXPECT_FALSE(cache.find("b"));
  EXPECT_TRUE(cache.find("c5"));
  // Over half the budget alone: only the count is kept.
  cache.put("big", matches(2000));
  ASSERT_TRUE(cache.find("big"));
  EXPECT_EQ(cache.find("big")->count, 2000);
  EXPECT_FALSE(cache.find("big")->matches);
  EXPECT_TRUE(cache.find("c5"));
}

TEST(SearchResultCache, EachThreadAndEachCacheHasItsOwnEntries) {
  const SearchResultCache one(1 << 20);
  const SearchResultCache two(1 << 20);
  one.put("k", matches(3));
  std::thread([&] { EXPECT_FALSE(one.find("k")); }).join();
  EXPECT_FALSE(two.find("k"));
  EXPECT_FALSE(one.find("k"));  // two's use emptied this thread's entries of one
}

// Whether `n` threads come to wait for the read of `key` within ten seconds.
bool until_waiting(const SearchResultCache& cache, const std::string& key, int n) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (cache.waiting_for(key) < n) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::yield();
  }
  return true;
}

// Threads missing one key together: the first reads, the rest wait for what it puts.
TEST(SearchResultCache, ThreadsMissingOneKeyTogetherReadItOnce) {
  const SearchResultCache cache(1 << 20);
  constexpr int kThreads = 6;
  std::atomic<int> readers{0};
  std::atomic<int> handed{0};
  SearchResultCache::Miss first;
  ASSERT_FALSE(cache.find("k", first));  // this thread reads
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&] {
      SearchResultCache::Miss miss;
      const auto found = cache.find("k", miss);
      if (found) {
        EXPECT_EQ(found->count, 7);
        ++handed;
      } else {
        ++readers;
      }
    });
  }
  EXPECT_TRUE(until_waiting(cache, "k", kThreads)) << "the others did not wait for the read";
  cache.put("k", matches(7), first);
  for (auto& t : threads) t.join();
  EXPECT_EQ(readers.load(), 0);
  EXPECT_EQ(handed.load(), kThreads);
  // Each waiter kept what it was handed: a later miss of its own finds it.
  std::thread([&] {
    SearchResultCache::Miss miss;
    EXPECT_FALSE(cache.find("k", miss));  // a new thread has no entry and none is being read
  }).join();
}

// A read that fails (its Miss ends without a put) sends the waiters to read for themselves.
TEST(SearchResultCache, AFailedReadLetsTheWaitersReadThemselves) {
  const SearchResultCache cache(1 << 20);
  std::optional<bool> waiter_found;
  std::thread waiter;
  {
    SearchResultCache::Miss failing;
    ASSERT_FALSE(cache.find("k", failing));
    waiter = std::thread([&] {
      SearchResultCache::Miss miss;
      waiter_found = cache.find("k", miss).has_value();
    });
    EXPECT_TRUE(until_waiting(cache, "k", 1));
  }  // the read failed: no put
  waiter.join();
  ASSERT_TRUE(waiter_found.has_value());
  EXPECT_FALSE(*waiter_found);
  SearchResultCache::Miss again;
  EXPECT_FALSE(cache.find("k", again));  // nothing left behind: this thread reads anew
}

TEST(SearchResultCache, KeysTellEveryFieldApart) {
  LeadListQuery q;
  q.search_folded = "zephyr";
  const std::string base = lead_search_key("ws", 3, q);
  EXPECT_NE(base, lead_search_key("ws", 4, q));
  EXPECT_NE(base, lead_search_key("ws2", 3, q));
  LeadListQuery other = q;
  other.stage = domain::PipelineStage::kNew;
  EXPECT_NE(base, lead_search_key("ws", 3, other));
  other = q;
  other.updated.since = domain::Timestamp{5};
  EXPECT_NE(base, lead_search_key("ws", 3, other));
  other = q;
  other.updated.before = domain::Timestamp{5};
  EXPECT_NE(lead_search_key("ws", 3, other), [&] {
    LeadListQuery s = q;
    s.updated.since = domain::Timestamp{5};
    return lead_search_key("ws", 3, s);
  }());
  other = q;
  other.sort.direction = SortDirection::kAsc;
  EXPECT_NE(base, lead_search_key("ws", 3, other));
  other = q;
  other.sort.field = LeadSortField::kLeadScore;
  EXPECT_NE(base, lead_search_key("ws", 3, other));
  other = q;
  other.page.limit = 7;
  other.page.offset = 14;
  EXPECT_EQ(base, lead_search_key("ws", 3, other));  // any page of it
}

}  // namespace
}  // namespace leadline::store
