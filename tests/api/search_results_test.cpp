// Lead searches stay exact while SQLite answers them from its search result cache: every write,
// through this server, another server or `leadline import` on the same database, changes the
// next answer, and a search paged with writes between pages returns what the unsearched list
// (which the cache never serves) says, byte for byte.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "support/fixture.hpp"

namespace leadline_test {
namespace {

class SearchResultsTest : public ApiTest {
 protected:
  struct Answer {
    std::int64_t total_count = 0;
    bool has_more = false;
    std::string next_cursor;
    std::vector<std::string> items;  // serialized
  };

  Answer search(const std::string& query, std::optional<std::string> key = std::nullopt) {
    HttpResponse r = get("/leads?" + query, std::move(key));
    EXPECT_STATUS(r, 200u);
    Answer a;
    if (r.status != 200 || !is_list_envelope(r)) return a;
    const auto& p = r.object().at("pagination").as_object();
    a.total_count = p.at("total_count").as_int64();
    a.has_more = p.at("has_more").as_bool();
    if (a.has_more) a.next_cursor = str(p.at("next_cursor"));
    for (const auto& i : r.data().as_array()) a.items.push_back(json::serialize(i));
    return a;
  }

  // The leads whose visitor_name holds `needle` (the test's leads have no e-mail or company),
  // in the unsearched list's order for `sort`, serialized.
  std::vector<std::string> matching(const std::string& needle, const std::string& sort) {
    std::vector<std::string> out;
    for (const auto& i : list_all("leads", "sort=" + sort)) {
      if (std::string(i.as_object().at("visitor_name").as_string()).find(needle) !=
          std::string::npos) {
        out.push_back(json::serialize(i));
      }
    }
    return out;
  }

  // The first page of `limit` of the search as the unsearched list says it.
  void expect_first_page(const std::string& needle, const std::string& sort, int limit) {
    const std::vector<std::string> all = matching(needle, sort);
    const Answer a =
        search("search=" + needle + "&sort=" + sort + "&limit=" + std::to_string(limit));
    EXPECT_EQ(a.total_count, static_cast<std::int64_t>(all.size()));
    const std::size_t n = std::min(all.size(), static_cast<std::size_t>(limit));
    EXPECT_EQ(a.items, std::vector<std::string>(all.begin(), all.begin() + n));
    EXPECT_EQ(a.has_more, all.size() > n);
  }

  void import_named(const std::vector<std::string>& names, const std::string& workspace) {
    std::vector<json::value> lines;
    for (std::size_t i = 0; i < names.size(); ++i) {
      json::object o{{"type", "lead"},
                     {"visitor_name", names[i]},
                     {"created_at",
                      timestamp_from_now(std::chrono::seconds(-10000 + static_cast<int>(i) * 10))}};
      if (i % 3 != 0) o["lead_score"] = static_cast<int>(i % 4) * 10;
      lines.push_back(o);
    }
    import_lines(workspace, lines);
  }

  static std::string id_of(const std::string& serialized) {
    return str(json::parse(serialized).as_object().at("id"));
  }
};

TEST_F(SearchResultsTest, InsertPatchAndDeleteEachChangeTheNextAnswer) {
  import_named({"zephyr a", "plain b", "zephyr c", "plain d", "zephyr e", "plain f"}, ws_.id);
  for (const std::string sort : {"created_at:desc", "updated_at", "visitor_name:desc"}) {
    SCOPED_TRACE(sort);
    expect_first_page("zephyr", sort, 2);
    const json::object created = create_lead({{"visitor_name", "zephyr new"}});
    expect_first_page("zephyr", sort, 2);
    const std::string plain = id_of(matching("plain", sort).front());
    ASSERT_STATUS(patch("/leads?id=" + plain, json::object{{"visitor_name", "zephyr now"}}), 200u);
    expect_first_page("zephyr", sort, 2);
    const std::string first = id_of(matching("zephyr", sort).front());
    ASSERT_STATUS(patch("/leads?id=" + first, json::object{{"visitor_name", "gone"}}), 200u);
    expect_first_page("zephyr", sort, 2);
    // A sort key that moves a match.
    const std::string last = id_of(matching("zephyr", sort).back());
    ASSERT_STATUS(patch("/leads?id=" + last, json::object{{"visitor_name", "zephyr zz"}}), 200u);
    expect_first_page("zephyr", sort, 2);
    ASSERT_STATUS(del("/leads?id=" + str(created.at("id"))), 200u);
    expect_first_page("zephyr", sort, 2);
  }
}

TEST_F(SearchResultsTest, AWriteFromAnotherProcessIsSeenByTheNextSearch) {
  import_named({"zephyr a", "zephyr b", "plain c"}, ws_.id);
  EXPECT_EQ(search("search=zephyr").total_count, 2);
  import_named({"zephyr imported"}, ws_.id);  // `leadline import`, its own process
  EXPECT_EQ(search("search=zephyr").total_count, 3);
  expect_first_page("zephyr", "created_at:desc", 10);

  ServerOptions options;
  options.db_url = server().db_url();
  options.extra_args = {"--rate-limit", "1000000/60s"};
  ServerProcess second(options);
  HttpClient other(second.host(), second.port());
  const Headers auth = {{"Authorization", "Bearer " + ws_.rw.key}};
  HttpResponse r = other.request(
      "POST", std::string(kBase) + "/leads",
      json::serialize(json::object{{"visitor_name", "zephyr there"}}),
      {{"Authorization", "Bearer " + ws_.rw.key}, {"Content-Type", "application/json"}});
  ASSERT_STATUS(r, 201u);
  const std::string there = str(r.data().as_object().at("id"));
  EXPECT_EQ(search("search=zephyr").total_count, 4);
  expect_first_page("zephyr", "created_at:desc", 10);
  r = other.request(
      "PATCH", std::string(kBase) + "/leads?id=" + there,
      json::serialize(json::object{{"visitor_name", "elsewhere"}}),
      {{"Authorization", "Bearer " + ws_.rw.key}, {"Content-Type", "application/json"}});
  ASSERT_STATUS(r, 200u);
  EXPECT_EQ(search("search=zephyr").total_count, 3);
  const std::string imported = id_of(matching("zephyr imported", "created_at").front());
  ASSERT_STATUS(
      other.request("DELETE", std::string(kBase) + "/leads?id=" + imported, std::nullopt, auth),
      200u);
  EXPECT_EQ(search("search=zephyr").total_count, 2);
  expect_first_page("zephyr", "created_at:desc", 10);
}

TEST_F(SearchResultsTest, PagingWithWritesBetweenPagesReturnsWhatTheUnsearchedListSays) {
  std::vector<std::string> names;
  for (int i = 0; i < 24; ++i) {
    names.push_back((i % 3 == 2 ? "plain " : "zephyr ") + std::to_string(100 + i));
  }
  import_named(names, ws_.id);
  for (const std::string sort : {"created_at", "created_at:asc", "lead_score", "lead_score:asc",
                                 "visitor_name:desc", "updated_at:asc"}) {
    SCOPED_TRACE(sort);
    const std::string query = "search=zephyr&limit=4&sort=" + sort;
    Answer page = search(query);
    std::string last = id_of(page.items.back());
    for (int round = 0; page.has_more; ++round) {
      ASSERT_LT(round, 40);
      create_lead({{"visitor_name", "zephyr " + std::to_string(200 + round)}});
      create_lead({{"visitor_name", "plain " + std::to_string(200 + round)}});
      page = search(query + "&cursor=" + url_encode(page.next_cursor));
      const std::vector<std::string> all = matching("zephyr", sort);
      std::vector<std::string> ids;
      for (const auto& item : all) ids.push_back(id_of(item));
      const auto at = std::find(ids.begin(), ids.end(), last);
      ASSERT_NE(at, ids.end());
      const std::size_t from = static_cast<std::size_t>(at - ids.begin()) + 1;
      const std::size_t to = std::min(all.size(), from + 4);
      EXPECT_EQ(page.total_count, static_cast<std::int64_t>(all.size()));
      EXPECT_EQ(page.items, std::vector<std::string>(all.begin() + from, all.begin() + to));
      EXPECT_EQ(page.has_more, to < all.size());
      if (page.items.empty()) break;
      last = id_of(page.items.back());
    }
  }
}

TEST_F(SearchResultsTest, PagePagingAndCursorsOfAnotherSearch) {
  std::vector<std::string> names;
  for (int i = 0; i < 12; ++i) names.push_back("zephyr " + std::to_string(i));
  import_named(names, ws_.id);
  const std::vector<std::string> all = matching("zephyr", "created_at:desc");
  const Answer second = search("search=zephyr&limit=5&page=2");
  EXPECT_EQ(second.items, std::vector<std::string>(all.begin() + 5, all.begin() + 10));
  EXPECT_EQ(second.total_count, 12);
  const Answer third = search("search=zephyr&limit=5&page=3");
  EXPECT_EQ(third.items, std::vector<std::string>(all.begin() + 10, all.end()));
  EXPECT_FALSE(third.has_more);
  EXPECT_TRUE(search("search=zephyr&limit=5&page=4").items.empty());

  // Both searches answered (and kept) before either cursor is used elsewhere.
  const Answer zephyr = search("search=zephyr&limit=2");
  const Answer zephy = search("search=zephy&limit=2");
  EXPECT_TRUE(
      is_error(get("/leads?search=zephy&limit=2&cursor=" + url_encode(zephyr.next_cursor)), 400));
  EXPECT_TRUE(
      is_error(get("/leads?search=zephyr&limit=2&cursor=" + url_encode(zephy.next_cursor)), 400));
  EXPECT_TRUE(is_error(get("/leads?search=zephyr&limit=2&sort=created_at:asc&cursor=" +
                           url_encode(zephyr.next_cursor)),
                       400));
}

TEST_F(SearchResultsTest, EachWorkspaceSearchesItsOwnLeads) {
  WorkspaceKeys other = make_workspace("Other");
  import_named({"zephyr mine"}, ws_.id);
  import_named({"zephyr theirs", "zephyr theirs too"}, other.id);
  EXPECT_EQ(search("search=zephyr").total_count, 1);
  EXPECT_EQ(search("search=zephyr", other.rw.key).total_count, 2);
  create_lead({{"visitor_name", "zephyr theirs 3"}}, other.rw.key);
  EXPECT_EQ(search("search=zephyr").total_count, 1);
  EXPECT_EQ(search("search=zephyr", other.rw.key).total_count, 3);
}

}  // namespace
}  // namespace leadline_test
