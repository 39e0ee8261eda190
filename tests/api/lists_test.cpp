// List endpoints: limit, sort parsing and every sort field's order (ties by id, nulls last),
// keyset cursors (stability, tampering, reuse rules), page paging, total_count, search, tag,
// stage/status filters and query parameter validation.

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <tuple>

#include "support/fixture.hpp"

namespace leadline_test {
namespace {

// Simple case folding for the test data: ASCII and Latin-1 capitals (U+00C0..U+00DE).
std::string fold(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 'A' && c <= 'Z') {
      out += static_cast<char>(c + 32);
    } else if (c == 0xC3 && i + 1 < s.size()) {
      unsigned char n = static_cast<unsigned char>(s[i + 1]);
      if (n >= 0x80 && n <= 0x9E && n != 0x97) n = static_cast<unsigned char>(n + 0x20);
      out += static_cast<char>(c);
      out += static_cast<char>(n);
      ++i;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

using SortKey = std::function<std::optional<std::string>(const json::object&)>;

SortKey field_key(const std::string& field) {
  return [field](const json::object& o) -> std::optional<std::string> {
    const auto& v = o.at(field);
    if (v.is_null()) return std::nullopt;
    if (v.is_string()) return std::string(v.as_string());
    char buf[64];
    std::snprintf(buf, sizeof buf, "%030.6f", v.to_number<double>());
    return std::string(buf);
  };
}

SortKey folded_key(const std::string& field) {
  return [field](const json::object& o) -> std::optional<std::string> {
    const auto& v = o.at(field);
    if (v.is_null()) return std::nullopt;
    return fold(std::string(v.as_string()));
  };
}

// Order of `items` by the keys (each compared in `desc` direction, null last in both
// directions), ties broken by id in the same direction.
std::vector<std::string> expected_order(const json::array& items, std::vector<SortKey> keys,
                                        bool desc) {
  std::vector<json::object> v;
  for (const auto& i : items) v.push_back(i.as_object());
  std::sort(v.begin(), v.end(), [&](const json::object& a, const json::object& b) {
    for (const auto& key : keys) {
      auto ka = key(a);
      auto kb = key(b);
      if (ka == kb) continue;
      if (!ka) return false;  // null last
      if (!kb) return true;
      return desc ? *ka > *kb : *ka < *kb;
    }
    std::string ia(a.at("id").as_string());
    std::string ib(b.at("id").as_string());
    return desc ? ia > ib : ia < ib;
  });
  std::vector<std::string> ids;
  for (const auto& o : v) ids.push_back(str(o.at("id")));
  return ids;
}

class ListsTest : public ApiTest {
 protected:
  HttpResponse list(const std::string& resource, const std::string& query,
                    std::optional<std::string> key = std::nullopt) {
    return get("/" + resource + (query.empty() ? "" : "?" + query), std::move(key));
  }

  // Ids of one page of at most 100 items (asserting it is the whole list).
  std::vector<std::string> whole(const std::string& resource, const std::string& query) {
    HttpResponse r = list(resource, "limit=100" + (query.empty() ? "" : "&" + query));
    EXPECT_STATUS(r, 200u);
    EXPECT_TRUE(is_list_envelope(r));
    if (r.status != 200 || !is_list_envelope(r)) return {};
    EXPECT_FALSE(r.object().at("pagination").as_object().at("has_more").as_bool());
    return ids_of(r.data().as_array());
  }

  json::array items(const std::string& resource, const std::string& query = "") {
    HttpResponse r = list(resource, "limit=100" + (query.empty() ? "" : "&" + query));
    if (r.status != 200) throw std::runtime_error(r.describe());
    return r.data().as_array();
  }

  // Ids of every page following next_cursor with page size `limit`, checking pagination.
  std::vector<std::string> walk(const std::string& resource, const std::string& query, int limit,
                                std::int64_t expected_total) {
    std::vector<std::string> ids;
    std::string cursor;
    for (int guard = 0; guard < 200; ++guard) {
      std::string q = "limit=" + std::to_string(limit);
      if (!query.empty()) q += "&" + query;
      if (!cursor.empty()) q += "&cursor=" + url_encode(cursor);
      HttpResponse r = list(resource, q);
      EXPECT_STATUS(r, 200u);
      EXPECT_TRUE(is_list_envelope(r));
      if (r.status != 200 || !is_list_envelope(r)) return ids;
      const auto& p = r.object().at("pagination").as_object();
      EXPECT_EQ(p.at("total_count").as_int64(), expected_total) << r.describe();
      EXPECT_EQ(p.at("limit").as_int64(), limit) << r.describe();
      auto page = ids_of(r.data().as_array());
      ids.insert(ids.end(), page.begin(), page.end());
      if (!p.at("has_more").as_bool()) return ids;
      EXPECT_EQ(page.size(), static_cast<std::size_t>(limit)) << "a non-last page is full";
      cursor = str(p.at("next_cursor"));
    }
    ADD_FAILURE() << "cursor walk did not end";
    return ids;
  }

  std::string first_cursor(const std::string& resource, const std::string& query,
                           std::optional<std::string> key = std::nullopt) {
    HttpResponse r = list(resource, "limit=2" + (query.empty() ? "" : "&" + query), key);
    if (r.status != 200 || !r.object().at("pagination").as_object().at("has_more").as_bool()) {
      throw std::runtime_error("expected a first page with more results\n" + r.describe());
    }
    return str(r.object().at("pagination").as_object().at("next_cursor"));
  }

  // Imports leads: {name, score (negative = null), created_at offset in seconds}.
  void import_leads(const std::vector<std::tuple<std::string, int, int>>& leads,
                    std::optional<std::string> workspace = std::nullopt) {
    std::vector<json::value> lines;
    for (const auto& [name, score, offset] : leads) {
      json::object o{{"type", "lead"},
                     {"visitor_name", name},
                     {"created_at", timestamp_from_now(std::chrono::seconds(-10000 + offset))}};
      if (score >= 0) o["lead_score"] = score;
      lines.push_back(o);
    }
    import_lines(workspace.value_or(ws_.id), lines);
  }

  // 23 leads with tied created_at values, tied and null scores and tied names.
  void import_mixed_leads() {
    std::vector<std::tuple<std::string, int, int>> leads;
    const std::vector<std::string> names = {"bob",
                                            "Alice",
                                            "alice",
                                            "\xc3\x89mile",
                                            "zoe",
                                            "Zed",
                                            "\xc3\xa9"
                                            "b\xc3\xa8"
                                            "ne",
                                            "carl"};
    for (int i = 0; i < 23; ++i) {
      int score = (i % 4 == 0) ? -1 : (i % 5) * 10;
      leads.emplace_back(names[i % names.size()], score, (i / 3) * 7);  // 3 share a created_at
    }
    import_leads(leads);
  }

  void import_conversations(int n) {
    std::vector<json::value> lines;
    for (int i = 0; i < n; ++i) {
      std::string created = timestamp_from_now(std::chrono::seconds(-5000 + (i / 2) * 10));
      std::string msg = timestamp_from_now(std::chrono::seconds(-4000 + ((i * 7) % n) * 10));
      lines.push_back(conversation_line(
          {{"first_name", "V" + std::to_string(i)}, {"email", "v" + std::to_string(i) + "@x.io"}},
          {message_line("m", msg)}, created, i % 2 ? "open" : "archived"));
    }
    import_lines(ws_.id, lines);
  }
};

TEST_F(ListsTest, LimitDefaultsTo50AndIsClampedTo100) {
  std::vector<std::tuple<std::string, int, int>> leads;
  for (int i = 0; i < 120; ++i) leads.emplace_back("L" + std::to_string(i), -1, i);
  import_leads(leads);
  HttpResponse r = list("leads", "");
  ASSERT_TRUE(is_list_envelope(r));
  EXPECT_EQ(r.data().as_array().size(), 50u);
  const auto& p = r.object().at("pagination").as_object();
  EXPECT_EQ(p.at("limit"), 50);
  EXPECT_EQ(p.at("total_count"), 120);
  EXPECT_EQ(p.at("has_more"), true);
  for (const char* q : {"limit=101", "limit=1000", "limit=100"}) {
    SCOPED_TRACE(q);
    HttpResponse big = list("leads", q);
    ASSERT_TRUE(is_list_envelope(big));
    EXPECT_EQ(big.data().as_array().size(), 100u);
    EXPECT_EQ(big.object().at("pagination").as_object().at("limit"), 100);
  }
  HttpResponse one = list("leads", "limit=1");
  ASSERT_TRUE(is_list_envelope(one));
  EXPECT_EQ(one.data().as_array().size(), 1u);
  EXPECT_EQ(one.object().at("pagination").as_object().at("limit"), 1);
}

TEST_F(ListsTest, InvalidLimitIs400) {
  for (const char* resource : {"leads", "contacts", "conversations"}) {
    for (const char* q : {"limit=0", "limit=-1", "limit=1.5", "limit=abc", "limit=", "limit=1e2",
                          "limit=5x", "limit=%205"}) {
      SCOPED_TRACE(std::string(resource) + "?" + q);
      EXPECT_TRUE(is_error(list(resource, q), 400, "limit"));
    }
  }
  // The sentence states the rule the server applies: no upper bound, 100 at most served.
  EXPECT_TRUE(
      is_error(list("leads", "limit=0"), 400,
               "limit must be an integer of at least 1 (values above 100 are treated as 100)"));
}

TEST_F(ListsTest, SortAcceptsOnlyTheEndpointsFieldsAndDirections) {
  const std::map<std::string, std::vector<std::string>> allowed = {
      {"leads", {"created_at", "updated_at", "lead_score", "visitor_name"}},
      {"contacts", {"created_at", "last_activity", "name", "email"}},
      {"conversations", {"created_at", "updated_at"}},
  };
  const std::vector<std::string> all_fields = {
      "created_at", "updated_at", "lead_score", "visitor_name", "last_activity",
      "name",       "email",      "id",         "status"};
  for (const auto& [resource, fields] : allowed) {
    for (const auto& f : all_fields) {
      bool ok = std::find(fields.begin(), fields.end(), f) != fields.end();
      for (const std::string& dir : {std::string(""), std::string(":asc"), std::string(":desc")}) {
        SCOPED_TRACE(resource + " sort=" + f + dir);
        HttpResponse r = list(resource, "sort=" + f + dir);
        if (ok) {
          EXPECT_STATUS(r, 200u);
        } else {
          EXPECT_TRUE(is_error(r, 400, "sort"));
        }
      }
    }
    for (const std::string& bad : {std::string("created_at:up"), std::string("created_at:"),
                                   std::string(":desc"), std::string("created_at:desc:x"),
                                   std::string("created_at desc"), std::string("-created_at")}) {
      SCOPED_TRACE(resource + " sort=" + bad);
      EXPECT_TRUE(is_error(list(resource, "sort=" + url_encode(bad)), 400, "sort"));
    }
  }
}

TEST_F(ListsTest, DefaultOrderIsCreatedAtDescendingWithIdTiebreak) {
  import_mixed_leads();
  json::array all = items("leads");
  ASSERT_EQ(all.size(), 23u);
  auto expected = expected_order(all, {field_key("created_at")}, true);
  EXPECT_EQ(whole("leads", ""), expected);
  EXPECT_EQ(whole("leads", "sort=created_at:desc"), expected);
  EXPECT_EQ(whole("leads", "sort=created_at:asc"),
            expected_order(all, {field_key("created_at")}, false));
  EXPECT_EQ(whole("leads", "sort=created_at"),
            expected_order(all, {field_key("created_at")}, false));
}

TEST_F(ListsTest, LeadSortsProduceTheDocumentedOrders) {
  import_mixed_leads();
  // Give a few leads a newer updated_at.
  json::array before = items("leads");
  for (std::size_t i = 0; i < before.size(); i += 4) {
    std::this_thread::sleep_for(3ms);
    ASSERT_STATUS(patch("/leads?id=" + str(before[i].as_object().at("id")),
                        json::object{{"need_summary", "touched " + std::to_string(i)}}),
                  200u);
  }
  json::array all = items("leads");
  for (bool desc : {false, true}) {
    std::string dir = desc ? ":desc" : ":asc";
    SCOPED_TRACE(dir);
    EXPECT_EQ(whole("leads", "sort=updated_at" + dir),
              expected_order(all, {field_key("updated_at")}, desc));
    EXPECT_EQ(whole("leads", "sort=lead_score" + dir),
              expected_order(all, {field_key("lead_score")}, desc));
    EXPECT_EQ(whole("leads", "sort=visitor_name" + dir),
              expected_order(all, {folded_key("visitor_name")}, desc));
  }
}

TEST_F(ListsTest, LeadScoreNullsSortLastInBothDirections) {
  import_leads({{"a", 10, 0}, {"b", -1, 1}, {"c", 30, 2}, {"d", 20, 3}, {"e", -1, 4}});
  auto names_for = [&](const std::string& q) {
    std::vector<std::string> names;
    for (const auto& i : items("leads", q)) names.push_back(str(i.as_object().at("visitor_name")));
    return names;
  };
  auto asc = names_for("sort=lead_score:asc");
  auto desc = names_for("sort=lead_score:desc");
  ASSERT_EQ(asc.size(), 5u);
  EXPECT_EQ(std::vector<std::string>(asc.begin(), asc.begin() + 3),
            (std::vector<std::string>{"a", "d", "c"}));
  EXPECT_EQ(std::set<std::string>(asc.begin() + 3, asc.end()), (std::set<std::string>{"b", "e"}));
  EXPECT_EQ(std::vector<std::string>(desc.begin(), desc.begin() + 3),
            (std::vector<std::string>{"c", "d", "a"}));
  EXPECT_EQ(std::set<std::string>(desc.begin() + 3, desc.end()), (std::set<std::string>{"b", "e"}));
}

TEST_F(ListsTest, VisitorNameSortComparesCaseFoldedCodePoints) {
  import_leads({{"bob", -1, 0},
                {"Alice", -1, 1},
                {"\xc3\x89mile", -1, 2},
                {"zoe", -1, 3},
                {"Zed", -1, 4},
                {"\xc3\xa9"
                 "b\xc3\xa8"
                 "ne",
                 -1, 5}});
  std::vector<std::string> names;
  for (const auto& i : items("leads", "sort=visitor_name")) {
    names.push_back(str(i.as_object().at("visitor_name")));
  }
  EXPECT_EQ(names, (std::vector<std::string>{"Alice", "bob", "Zed", "zoe",
                                             "\xc3\xa9"
                                             "b\xc3\xa8"
                                             "ne",
                                             "\xc3\x89mile"}));
}

TEST_F(ListsTest, ContactSortsProduceTheDocumentedOrders) {
  struct C {
    std::string first;
    std::optional<std::string> last;
    std::optional<std::string> email;
  };
  const std::vector<C> contacts = {
      {"ada", "Zed", "b@x.io"},         {"Ada", std::nullopt, "A@x.io"},
      {"ada", "byron", std::nullopt},   {"\xc3\x89mile", "x", "c@x.io"},
      {"bob", "a", std::nullopt},       {"ADA", "zed", "d@x.io"},
      {"carl", std::nullopt, "E@x.io"},
  };
  for (const auto& c : contacts) {
    json::object body{{"first_name", c.first}};
    if (c.last) body["last_name"] = *c.last;
    if (c.email) body["email"] = *c.email;
    create_contact(body);
    std::this_thread::sleep_for(2ms);
  }
  // Touch two contacts so that last_activity differs from created_at order.
  json::array initial = items("contacts", "sort=created_at:asc");
  ASSERT_EQ(initial.size(), contacts.size());
  ASSERT_STATUS(patch("/contacts?id=" + str(initial[0].as_object().at("id")),
                      json::object{{"profile_notes", "x"}}),
                200u);
  std::this_thread::sleep_for(3ms);
  ASSERT_STATUS(patch("/contacts?id=" + str(initial[2].as_object().at("id")),
                      json::object{{"profile_notes", "y"}}),
                200u);
  json::array all = items("contacts");
  for (bool desc : {false, true}) {
    std::string dir = desc ? ":desc" : "";
    SCOPED_TRACE("desc=" + std::to_string(desc));
    EXPECT_EQ(whole("contacts", "sort=created_at" + dir),
              expected_order(all, {field_key("created_at")}, desc));
    EXPECT_EQ(whole("contacts", "sort=last_activity" + dir),
              expected_order(all, {field_key("last_activity")}, desc));
    EXPECT_EQ(whole("contacts", "sort=name" + dir),
              expected_order(all, {folded_key("first_name"), folded_key("last_name")}, desc));
    EXPECT_EQ(whole("contacts", "sort=email" + dir),
              expected_order(all, {folded_key("email")}, desc));
  }
  // Spot-check the name order by hand: ada byron, ada zed / ADA zed (id order), Ada (no last
  // name), bob, carl, Émile.
  std::vector<std::string> firsts;
  std::vector<json::value> lasts;
  for (const auto& i : items("contacts", "sort=name:asc")) {
    firsts.push_back(str(i.as_object().at("first_name")));
    lasts.push_back(i.as_object().at("last_name"));
  }
  ASSERT_EQ(firsts.size(), 7u);
  EXPECT_EQ(lasts[0], "byron");
  EXPECT_TRUE(lasts[3].is_null());
  EXPECT_EQ(firsts[3], "Ada");
  EXPECT_EQ(firsts[4], "bob");
  EXPECT_EQ(firsts[5], "carl");
  EXPECT_EQ(firsts[6], "\xc3\x89mile");
}

TEST_F(ListsTest, ConversationSortsProduceTheDocumentedOrders) {
  import_conversations(9);
  json::array all = items("conversations");
  ASSERT_EQ(all.size(), 9u);
  EXPECT_EQ(whole("conversations", ""), expected_order(all, {field_key("created_at")}, true));
  for (bool desc : {false, true}) {
    std::string dir = desc ? ":desc" : ":asc";
    SCOPED_TRACE(dir);
    EXPECT_EQ(whole("conversations", "sort=created_at" + dir),
              expected_order(all, {field_key("created_at")}, desc));
    EXPECT_EQ(whole("conversations", "sort=updated_at" + dir),
              expected_order(all, {field_key("updated_at")}, desc));
  }
}

TEST_F(ListsTest, CursorWalkEqualsTheFullOrderForEverySort) {
  import_mixed_leads();
  for (const std::string& sort :
       {std::string(""), std::string("sort=created_at"), std::string("sort=created_at:desc"),
        std::string("sort=updated_at:asc"), std::string("sort=updated_at:desc"),
        std::string("sort=lead_score"), std::string("sort=lead_score:desc"),
        std::string("sort=visitor_name"), std::string("sort=visitor_name:desc")}) {
    SCOPED_TRACE(sort);
    auto full = whole("leads", sort);
    ASSERT_EQ(full.size(), 23u);
    EXPECT_EQ(walk("leads", sort, 5, 23), full);
    EXPECT_EQ(walk("leads", sort, 1, 23), full);
    EXPECT_EQ(walk("leads", sort, 23, 23), full);
  }
}

TEST_F(ListsTest, CursorWalkOnContactsAndConversations) {
  for (int i = 0; i < 11; ++i) {
    json::object body{{"first_name", i % 3 ? "Same" : "Other"}};
    if (i % 2) body["email"] = "c" + std::to_string(i) + "@x.io";
    create_contact(body);
  }
  for (const std::string& sort :
       {std::string(""), std::string("sort=name"), std::string("sort=name:desc"),
        std::string("sort=email"), std::string("sort=email:desc"),
        std::string("sort=last_activity"), std::string("sort=created_at:asc")}) {
    SCOPED_TRACE("contacts " + sort);
    auto full = whole("contacts", sort);
    ASSERT_EQ(full.size(), 11u);
    EXPECT_EQ(walk("contacts", sort, 3, 11), full);
  }
  import_conversations(7);
  for (const std::string& sort :
       {std::string(""), std::string("sort=updated_at"), std::string("sort=created_at:asc")}) {
    SCOPED_TRACE("conversations " + sort);
    auto full = whole("conversations", sort);
    ASSERT_EQ(full.size(), 7u);
    EXPECT_EQ(walk("conversations", sort, 2, 7), full);
  }
}

TEST_F(ListsTest, CursorStaysCorrectWhileRecordsAreInsertedAndDeleted) {
  std::vector<std::tuple<std::string, int, int>> leads;
  for (int i = 0; i < 20; ++i) {
    char name[8];
    std::snprintf(name, sizeof name, "n%02d", i);
    leads.emplace_back(name, -1, i);
  }
  import_leads(leads);
  std::map<std::string, std::string> id_of;
  for (const auto& i : items("leads")) {
    id_of[str(i.as_object().at("visitor_name"))] = str(i.as_object().at("id"));
  }

  // By name: the position is a key, not an offset.
  HttpResponse first = list("leads", "sort=visitor_name&limit=5");
  ASSERT_TRUE(is_list_envelope(first));
  std::vector<std::string> seen;
  for (const auto& i : first.data().as_array())
    seen.push_back(str(i.as_object().at("visitor_name")));
  EXPECT_EQ(seen, (std::vector<std::string>{"n00", "n01", "n02", "n03", "n04"}));
  std::string cursor = str(first.object().at("pagination").as_object().at("next_cursor"));

  ASSERT_STATUS(del("/leads?id=" + id_of["n02"]), 200u);  // already seen
  ASSERT_STATUS(del("/leads?id=" + id_of["n07"]), 200u);  // not yet seen
  create_lead({{"visitor_name", "n03x"}});                // before the position
  create_lead({{"visitor_name", "n10x"}});                // after the position
  create_lead({{"visitor_name", "n99"}});

  std::vector<std::string> rest;
  for (int guard = 0; guard < 50 && !cursor.empty(); ++guard) {
    HttpResponse r = list("leads", "sort=visitor_name&limit=5&cursor=" + url_encode(cursor));
    ASSERT_TRUE(is_list_envelope(r));
    for (const auto& i : r.data().as_array()) rest.push_back(str(i.as_object().at("visitor_name")));
    const auto& p = r.object().at("pagination").as_object();
    cursor = p.at("has_more").as_bool() ? str(p.at("next_cursor")) : "";
  }
  EXPECT_EQ(rest,
            (std::vector<std::string>{"n05", "n06", "n08", "n09", "n10", "n10x", "n11", "n12",
                                      "n13", "n14", "n15", "n16", "n17", "n18", "n19", "n99"}));

  // Default order (created_at desc): new records land before the position and are not repeated.
  json::array now = items("leads");
  HttpResponse p1 = list("leads", "limit=4");
  ASSERT_TRUE(is_list_envelope(p1));
  auto page1 = ids_of(p1.data().as_array());
  std::string c = str(p1.object().at("pagination").as_object().at("next_cursor"));
  create_lead({{"visitor_name", "newest"}});
  std::string victim = str(now[10].as_object().at("id"));
  ASSERT_STATUS(del("/leads?id=" + victim), 200u);
  ASSERT_STATUS(del("/leads?id=" + page1[0]), 200u);
  std::vector<std::string> after;
  for (int guard = 0; guard < 50 && !c.empty(); ++guard) {
    HttpResponse r = list("leads", "limit=4&cursor=" + url_encode(c));
    ASSERT_TRUE(is_list_envelope(r));
    auto ids = ids_of(r.data().as_array());
    after.insert(after.end(), ids.begin(), ids.end());
    const auto& p = r.object().at("pagination").as_object();
    c = p.at("has_more").as_bool() ? str(p.at("next_cursor")) : "";
  }
  std::vector<std::string> expected;
  for (std::size_t i = 4; i < now.size(); ++i) {
    std::string id = str(now[i].as_object().at("id"));
    if (id != victim) expected.push_back(id);
  }
  EXPECT_EQ(after, expected);
}

TEST_F(ListsTest, CursorsAreBase64UrlText) {
  import_mixed_leads();
  for (const std::string& q : {std::string(""), std::string("sort=visitor_name:desc"),
                               std::string("sort=lead_score&search=a")}) {
    SCOPED_TRACE(q);
    std::string cursor = first_cursor("leads", q);
    EXPECT_TRUE(std::regex_match(cursor, std::regex("^[A-Za-z0-9_-]+=*$"))) << cursor;
  }
}

TEST_F(ListsTest, CursorWalkWithFilterSearchAndSortCombined) {
  std::vector<json::value> lines;
  for (int i = 0; i < 30; ++i) {
    lines.push_back(
        json::object{{"type", "lead"},
                     {"visitor_name", (i % 2 ? "Anna " : "Bob ") + std::to_string(i % 7)},
                     {"pipeline_stage", i % 3 ? "qualified" : "new"},
                     {"lead_score", i % 5},
                     {"created_at", timestamp_from_now(std::chrono::seconds(-1000 + (i / 4)))}});
  }
  import_lines(ws_.id, lines);
  for (const std::string& q :
       {std::string("stage=qualified&search=ann&sort=visitor_name:desc"),
        std::string("stage=qualified&search=a&sort=lead_score"),
        std::string("search=bob&sort=created_at:asc"), std::string("stage=new&sort=updated_at")}) {
    SCOPED_TRACE(q);
    auto full = whole("leads", q);
    ASSERT_FALSE(full.empty());
    EXPECT_EQ(walk("leads", q, 2, static_cast<std::int64_t>(full.size())), full);
  }
}

TEST_F(ListsTest, AlteringAnyCharacterOfACursorIs400) {
  import_mixed_leads();
  std::string cursor = first_cursor("leads", "");
  ASSERT_FALSE(cursor.empty());
  EXPECT_STATUS(list("leads", "limit=2&cursor=" + url_encode(cursor)), 200u);
  for (std::size_t i = 0; i < cursor.size(); ++i) {
    std::string altered = cursor;
    altered[i] = cursor[i] == 'A' ? 'B' : 'A';
    SCOPED_TRACE("position " + std::to_string(i) + ": " + altered);
    EXPECT_TRUE(is_error(list("leads", "limit=2&cursor=" + url_encode(altered)), 400, "cursor"));
  }
  for (const std::string& bad :
       {cursor.substr(0, cursor.size() - 1), cursor + "A", cursor.substr(1), std::string("abc"),
        std::string("eyJpZCI6IjEyMyJ9"), std::string("!!!!"), cursor + cursor}) {
    SCOPED_TRACE(bad);
    EXPECT_TRUE(is_error(list("leads", "limit=2&cursor=" + url_encode(bad)), 400, "cursor"));
  }
}

TEST_F(ListsTest, CursorUsedWithADifferentSortFilterOrSearchIs400) {
  import_mixed_leads();
  struct Case {
    std::string origin;
    std::string reuse;
  };
  const std::vector<Case> leads_cases = {
      {"sort=created_at:desc", "sort=created_at:asc"},
      {"sort=created_at:desc", "sort=updated_at:desc"},
      {"sort=visitor_name", "sort=lead_score"},
      {"stage=new", ""},
      {"stage=new", "stage=lost"},
      {"", "stage=new"},
      {"search=a", "search=b"},
      {"search=a", ""},
      {"", "search=a"},
  };
  for (const auto& c : leads_cases) {
    SCOPED_TRACE("leads: cursor of '" + c.origin + "' used with '" + c.reuse + "'");
    std::string cursor = first_cursor("leads", c.origin);
    std::string q = "limit=2&cursor=" + url_encode(cursor) + (c.reuse.empty() ? "" : "&" + c.reuse);
    EXPECT_TRUE(is_error(list("leads", q), 400));
    // The same cursor still works with its own parameters.
    std::string same =
        "limit=2&cursor=" + url_encode(cursor) + (c.origin.empty() ? "" : "&" + c.origin);
    EXPECT_STATUS(list("leads", same), 200u);
  }

  for (int i = 0; i < 5; ++i) {
    create_contact({{"first_name", "C" + std::to_string(i)}, {"tags", json::array{"x", "y"}}});
  }
  std::string tag_cursor = first_cursor("contacts", "tag=x");
  EXPECT_TRUE(is_error(list("contacts", "limit=2&tag=y&cursor=" + url_encode(tag_cursor)), 400));
  EXPECT_TRUE(is_error(list("contacts", "limit=2&cursor=" + url_encode(tag_cursor)), 400));

  import_conversations(6);
  std::string status_cursor = first_cursor("conversations", "status=archived");
  EXPECT_TRUE(is_error(
      list("conversations", "limit=2&status=open&cursor=" + url_encode(status_cursor)), 400));
  EXPECT_TRUE(is_error(list("conversations", "limit=2&cursor=" + url_encode(status_cursor)), 400));
}

TEST_F(ListsTest, EmptySearchIsNoSearchForCursorsToo) {
  import_mixed_leads();
  std::string cursor = first_cursor("leads", "");
  EXPECT_STATUS(list("leads", "limit=2&search=&cursor=" + url_encode(cursor)), 200u);
  std::string cursor2 = first_cursor("leads", "search=");
  EXPECT_STATUS(list("leads", "limit=2&cursor=" + url_encode(cursor2)), 200u);
}

TEST_F(ListsTest, CursorsWorkOnEveryInstanceSharingTheDatabase) {
  import_mixed_leads();
  auto full = whole("leads", "sort=visitor_name");
  HttpResponse p1 = list("leads", "limit=5&sort=visitor_name");
  ASSERT_TRUE(is_list_envelope(p1));
  std::string cursor = str(p1.object().at("pagination").as_object().at("next_cursor"));

  ServerOptions options;
  options.db_url = server().db_url();
  options.extra_args = {"--rate-limit", "1000000/60s"};
  ServerProcess second(options);
  HttpClient other(second.host(), second.port());
  HttpResponse p2 = other.request(
      "GET", std::string(kBase) + "/leads?limit=5&sort=visitor_name&cursor=" + url_encode(cursor),
      std::nullopt, {{"Authorization", "Bearer " + ws_.rw.key}});
  ASSERT_STATUS(p2, 200u);
  EXPECT_EQ(ids_of(p2.data().as_array()),
            std::vector<std::string>(full.begin() + 5, full.begin() + 10));
  std::string altered = cursor;
  altered[altered.size() / 2] = altered[altered.size() / 2] == 'A' ? 'B' : 'A';
  EXPECT_TRUE(is_error(
      other.request(
          "GET",
          std::string(kBase) + "/leads?limit=5&sort=visitor_name&cursor=" + url_encode(altered),
          std::nullopt, {{"Authorization", "Bearer " + ws_.rw.key}}),
      400));
}

TEST_F(ListsTest, CursorFromAnotherWorkspaceIs400) {
  import_mixed_leads();
  WorkspaceKeys other = make_workspace("Other");
  import_leads({{"x", -1, 0}, {"y", -1, 1}, {"z", -1, 2}, {"w", -1, 3}}, other.id);
  std::string cursor = first_cursor("leads", "");
  EXPECT_TRUE(is_error(list("leads", "limit=2&cursor=" + url_encode(cursor), other.rw.key), 400));
  std::string theirs = first_cursor("leads", "", other.rw.key);
  EXPECT_TRUE(is_error(list("leads", "limit=2&cursor=" + url_encode(theirs)), 400));
}

TEST_F(ListsTest, LimitMayChangeBetweenPages) {
  import_mixed_leads();
  auto full = whole("leads", "");
  HttpResponse p1 = list("leads", "limit=3");
  ASSERT_TRUE(is_list_envelope(p1));
  std::string c1 = str(p1.object().at("pagination").as_object().at("next_cursor"));
  HttpResponse p2 = list("leads", "limit=7&cursor=" + url_encode(c1));
  ASSERT_TRUE(is_list_envelope(p2));
  EXPECT_EQ(p2.object().at("pagination").as_object().at("limit"), 7);
  std::string c2 = str(p2.object().at("pagination").as_object().at("next_cursor"));
  HttpResponse p3 = list("leads", "limit=100&cursor=" + url_encode(c2));
  ASSERT_TRUE(is_list_envelope(p3));
  std::vector<std::string> got = ids_of(p1.data().as_array());
  for (const auto& p : {&p2, &p3}) {
    auto ids = ids_of(p->data().as_array());
    got.insert(got.end(), ids.begin(), ids.end());
  }
  EXPECT_EQ(ids_of(p2.data().as_array()).size(), 7u);
  EXPECT_EQ(got, full);
  EXPECT_FALSE(p3.object().at("pagination").as_object().at("has_more").as_bool());
}

TEST_F(ListsTest, PagePagingOnEveryListEndpoint) {
  std::vector<std::tuple<std::string, int, int>> leads;
  for (int i = 0; i < 12; ++i) leads.emplace_back("P" + std::to_string(i), -1, i / 2);
  import_leads(leads);
  import_conversations(12);  // also creates the 12 contacts (one per visitor)
  for (const char* resource : {"leads", "contacts", "conversations"}) {
    SCOPED_TRACE(resource);
    auto full = whole(resource, "");
    ASSERT_EQ(full.size(), 12u);
    for (int page = 1; page <= 4; ++page) {
      SCOPED_TRACE("page " + std::to_string(page));
      HttpResponse r = list(resource, "limit=5&page=" + std::to_string(page));
      ASSERT_TRUE(is_list_envelope(r));  // includes: next_cursor non-null exactly when has_more
      auto ids = ids_of(r.data().as_array());
      std::size_t from = std::min<std::size_t>(12, (page - 1) * 5);
      std::size_t to = std::min<std::size_t>(12, page * 5);
      EXPECT_EQ(ids, std::vector<std::string>(full.begin() + from, full.begin() + to));
      const auto& p = r.object().at("pagination").as_object();
      EXPECT_EQ(p.at("total_count"), 12);
      EXPECT_EQ(p.at("limit"), 5);
      EXPECT_EQ(p.at("has_more").as_bool(), page < 3);
    }
    // next_cursor of a page continues after that page.
    HttpResponse p2 = list(resource, "limit=5&page=2");
    ASSERT_TRUE(is_list_envelope(p2));
    std::string cursor = str(p2.object().at("pagination").as_object().at("next_cursor"));
    HttpResponse next = list(resource, "limit=5&cursor=" + url_encode(cursor));
    ASSERT_TRUE(is_list_envelope(next));
    EXPECT_EQ(ids_of(next.data().as_array()),
              std::vector<std::string>(full.begin() + 10, full.end()));
  }
}

TEST_F(ListsTest, InvalidPageAndPageWithCursorAre400) {
  import_mixed_leads();
  for (const char* resource : {"leads", "contacts", "conversations"}) {
    for (const char* q : {"page=0", "page=-1", "page=1.5", "page=abc", "page="}) {
      SCOPED_TRACE(std::string(resource) + "?" + q);
      EXPECT_TRUE(is_error(list(resource, q), 400, "page"));
    }
  }
  std::string cursor = first_cursor("leads", "");
  EXPECT_TRUE(is_error(list("leads", "page=1&cursor=" + url_encode(cursor)), 400));
  EXPECT_TRUE(is_error(list("leads", "page=2&limit=2&cursor=" + url_encode(cursor)), 400));
}

TEST_F(ListsTest, NextCursorIsNullWhenThereIsNoMore) {
  create_lead({{"visitor_name", "only"}});
  HttpResponse r = list("leads", "");
  ASSERT_TRUE(is_list_envelope(r));
  const auto& p = r.object().at("pagination").as_object();
  EXPECT_EQ(p.at("has_more"), false);
  EXPECT_TRUE(p.at("next_cursor").is_null());
  EXPECT_EQ(p.at("total_count"), 1);
  HttpResponse exact = list("leads", "limit=1");
  ASSERT_TRUE(is_list_envelope(exact));
  EXPECT_EQ(exact.object().at("pagination").as_object().at("has_more"), false);
  EXPECT_TRUE(exact.object().at("pagination").as_object().at("next_cursor").is_null());
  HttpResponse empty = list("contacts", "");
  ASSERT_TRUE(is_list_envelope(empty));
  EXPECT_EQ(empty.object().at("pagination").as_object().at("total_count"), 0);
  EXPECT_TRUE(empty.object().at("pagination").as_object().at("next_cursor").is_null());
}

TEST_F(ListsTest, TotalCountCountsAllMatchesIndependentOfPaging) {
  for (int i = 0; i < 7; ++i) {
    create_lead({{"visitor_name", "Q" + std::to_string(i)},
                 {"pipeline_stage", i < 3 ? "qualified" : "new"}});
  }
  EXPECT_EQ(total_count(list("leads", "limit=2")), 7);
  EXPECT_EQ(total_count(list("leads", "limit=2&stage=qualified")), 3);
  EXPECT_EQ(total_count(list("leads", "limit=1&stage=new&page=3")), 4);
  EXPECT_EQ(total_count(list("leads", "limit=1&search=q1")), 1);
  std::string cursor = first_cursor("leads", "stage=new");
  EXPECT_EQ(total_count(list("leads", "limit=2&stage=new&cursor=" + url_encode(cursor))), 4);
}

// PostgreSQL keeps each lead page read and answers it again while the workspace's leads are
// unchanged (docs/design.md, "Page cache"): every kind of lead write shows in the next read of
// every page, each read twice before the write so that the second comes from what was kept.
TEST_F(ListsTest, AListPageReadAgainShowsEveryWriteSinceWhateverItsQuery) {
  for (int i = 0; i < 5; ++i) {
    create_lead({{"visitor_name", "Kept " + std::to_string(i)}, {"pipeline_stage", "qualified"}});
  }
  const std::vector<std::string> queries = {"",
                                            "limit=2",
                                            "limit=2&page=2",
                                            "stage=qualified",
                                            "search=kept",
                                            "search=kept&limit=2&page=2",
                                            "sort=visitor_name:asc"};
  const auto read_twice = [&] {
    std::vector<HttpResponse> pages;
    for (const auto& q : queries) {
      SCOPED_TRACE(q);
      const HttpResponse first = list("leads", q);
      HttpResponse again = list("leads", q);
      EXPECT_STATUS(again, 200u);
      EXPECT_EQ(first.data(), again.data());
      EXPECT_EQ(first.object().at("pagination"), again.object().at("pagination"));
      pages.push_back(std::move(again));
    }
    return pages;
  };
  const auto names = [](const HttpResponse& page) {
    std::vector<std::string> out;
    for (const auto& item : page.data().as_array()) {
      out.push_back(str(item.as_object().at("visitor_name")));
    }
    return out;
  };
  read_twice();

  const std::string added = str(create_lead({{"visitor_name", "Kept 9"}}).at("id"));
  std::vector<HttpResponse> pages = read_twice();
  EXPECT_EQ(names(pages[0]).front(), "Kept 9");
  EXPECT_EQ(total_count(pages[0]), 6);
  EXPECT_EQ(total_count(pages[3]), 5);  // the new lead is "new"
  EXPECT_EQ(total_count(pages[4]), 6);
  EXPECT_EQ(names(pages[6]).back(), "Kept 9");

  ASSERT_STATUS(patch("/leads?id=" + added, json::object{{"visitor_name", "Aardvark kept"},
                                                         {"pipeline_stage", "qualified"}}),
                200u);
  pages = read_twice();
  EXPECT_EQ(names(pages[0]).front(), "Aardvark kept");
  EXPECT_EQ(total_count(pages[3]), 6);
  EXPECT_EQ(names(pages[6]).front(), "Aardvark kept");
  EXPECT_EQ(names(pages[4]).front(), "Aardvark kept");

  ASSERT_STATUS(del("/leads?id=" + added), 200u);
  pages = read_twice();
  EXPECT_EQ(names(pages[0]).front(), "Kept 4");
  for (std::size_t i : {0u, 3u, 4u}) EXPECT_EQ(total_count(pages[i]), 5) << queries[i];
  EXPECT_EQ(names(pages[2]), (std::vector<std::string>{"Kept 2", "Kept 1"}));
}

TEST_F(ListsTest, LeadStageFilter) {
  const std::vector<std::string> stages = {"new",       "qualified", "assigned",
                                           "contacted", "converted", "lost"};
  for (const auto& s : stages) create_lead({{"visitor_name", s}, {"pipeline_stage", s}});
  create_lead({{"visitor_name", "new2"}});
  for (const auto& s : stages) {
    SCOPED_TRACE(s);
    json::array got = items("leads", "stage=" + s);
    ASSERT_EQ(got.size(), s == "new" ? 2u : 1u);
    for (const auto& i : got) EXPECT_EQ(i.as_object().at("pipeline_stage"), json::value(s));
  }
  for (const char* bad : {"stage=New", "stage=won", "stage=all", "stage="}) {
    SCOPED_TRACE(bad);
    EXPECT_TRUE(is_error(list("leads", bad), 400, "stage"));
  }
}

TEST_F(ListsTest, ConversationStatusFilter) {
  std::vector<json::value> lines;
  for (const char* s : {"open", "pending", "active", "archived"}) {
    lines.push_back(conversation_line({{"first_name", s}}, {}, timestamp_from_now(-1000ms), s));
  }
  import_lines(ws_.id, lines);
  for (const char* s : {"open", "pending", "active", "archived"}) {
    SCOPED_TRACE(s);
    json::array got = items("conversations", std::string("status=") + s);
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].as_object().at("status"), json::value(s));
  }
  EXPECT_EQ(items("conversations", "status=all").size(), 4u);
  EXPECT_EQ(items("conversations", "").size(), 4u);
  EXPECT_EQ(total_count(list("conversations", "status=all")), 4);
  for (const char* bad : {"status=Open", "status=closed", "status=ALL", "status="}) {
    SCOPED_TRACE(bad);
    EXPECT_TRUE(is_error(list("conversations", bad), 400, "status"));
  }
}

TEST_F(ListsTest, LeadSearchMatchesNameEmailOrCompanyCaseInsensitively) {
  create_lead({{"visitor_name", "Ada Lovelace"}});
  create_lead({{"visitor_name", "X"}, {"visitor_email", "grace@NAVY.mil"}});
  create_lead({{"visitor_name", "Y"}, {"visitor_company", "Analytical Engines"}});
  create_lead({{"visitor_name", "Z"}, {"need_summary", "lovelace"}});
  auto names_for = [&](const std::string& term) {
    std::set<std::string> names;
    for (const auto& i : items("leads", "search=" + url_encode(term))) {
      names.insert(str(i.as_object().at("visitor_name")));
    }
    return names;
  };
  EXPECT_EQ(names_for("LOVE"), (std::set<std::string>{"Ada Lovelace"}));
  EXPECT_EQ(names_for("navy"), (std::set<std::string>{"X"}));
  EXPECT_EQ(names_for("engines"), (std::set<std::string>{"Y"}));
  EXPECT_EQ(names_for("nothing-matches"), std::set<std::string>{});
  EXPECT_EQ(total_count(list("leads", "search=a")), 3);
}

TEST_F(ListsTest, SearchIsUnicodeAwareAndTreatsWildcardsLiterally) {
  for (const char* name :
       {"M\xc3\xbcller", "Muller",
        "\xc3\xa9"
        "cole",
        "ecole", "100% pure", "100 pure", "a_b", "axb", "back\\slash", "backslash"}) {
    create_lead({{"visitor_name", name}});
  }
  auto names_for = [&](const std::string& term) {
    std::set<std::string> names;
    for (const auto& i : items("leads", "search=" + url_encode(term))) {
      names.insert(str(i.as_object().at("visitor_name")));
    }
    return names;
  };
  EXPECT_EQ(names_for("m\xc3\xbcller"), (std::set<std::string>{"M\xc3\xbcller"}));
  EXPECT_EQ(names_for("M\xc3\x9cLLER"), (std::set<std::string>{"M\xc3\xbcller"}));
  EXPECT_EQ(names_for("\xc3\x89"
                      "COLE"),
            (std::set<std::string>{"\xc3\xa9"
                                   "cole"}));
  EXPECT_EQ(names_for("%"), (std::set<std::string>{"100% pure"}));
  EXPECT_EQ(names_for("0% p"), (std::set<std::string>{"100% pure"}));
  EXPECT_EQ(names_for("_"), (std::set<std::string>{"a_b"}));
  EXPECT_EQ(names_for("a_b"), (std::set<std::string>{"a_b"}));
  EXPECT_EQ(names_for("\\"), (std::set<std::string>{"back\\slash"}));
  EXPECT_EQ(names_for("k\\s"), (std::set<std::string>{"back\\slash"}));
  EXPECT_EQ(items("leads", "search=").size(), 10u);
  EXPECT_EQ(total_count(list("leads", "search=")), 10);
}

TEST_F(ListsTest, SearchFoldsCaseBeyondLatin) {
  for (const char* name : {"\xd0\x9f\xd0\xa0\xd0\x98\xd0\x92\xd0\x95\xd0\xa2",  // ПРИВЕТ
                           "\xce\x91\xce\x98\xce\x97\xce\x9d\xce\x91",          // ΑΘΗΝΑ
                           "plain"}) {
    create_lead({{"visitor_name", name}});
  }
  auto count_for = [&](const std::string& term) {
    return items("leads", "search=" + url_encode(term)).size();
  };
  EXPECT_EQ(count_for("\xd0\xbf\xd1\x80\xd0\xb8\xd0\xb2"), 1u);  // прив
  EXPECT_EQ(count_for("\xce\xb8\xce\xb7\xce\xbd"), 1u);          // θην
  EXPECT_EQ(count_for("\xce\x98\xce\x97\xce\x9d"), 1u);          // ΘΗΝ
}

TEST_F(ListsTest, ContactSearchMatchesEveryDocumentedField) {
  create_contact({{"first_name", "Ada"}});
  create_contact({{"first_name", "B"}, {"last_name", "Lovelace"}});
  create_contact({{"first_name", "C"}, {"email", "grace@navy.mil"}});
  create_contact({{"first_name", "D"}, {"phone", "+44 20 7946"}});
  create_contact({{"first_name", "E"}, {"company_name", "Analytical Engines"}});
  create_contact({{"first_name", "F"}, {"profile_notes", "ada lovelace navy"}});
  auto firsts_for = [&](const std::string& term) {
    std::set<std::string> names;
    for (const auto& i : items("contacts", "search=" + url_encode(term))) {
      names.insert(str(i.as_object().at("first_name")));
    }
    return names;
  };
  EXPECT_EQ(firsts_for("aDA"), (std::set<std::string>{"Ada"}));
  EXPECT_EQ(firsts_for("LOVEL"), (std::set<std::string>{"B"}));
  EXPECT_EQ(firsts_for("NAVY.MIL"), (std::set<std::string>{"C"}));
  EXPECT_EQ(firsts_for("7946"), (std::set<std::string>{"D"}));
  EXPECT_EQ(firsts_for("engines"), (std::set<std::string>{"E"}));
}

TEST_F(ListsTest, ConversationSearchMatchesTheLinkedContact) {
  import_lines(ws_.id, {conversation_line({{"first_name", "Ada"},
                                           {"last_name", "Lovelace"},
                                           {"email", "ada@engines.io"},
                                           {"company_name", "Analytical"}},
                                          {message_line("zebra", timestamp_from_now(-1000ms))},
                                          timestamp_from_now(-2000ms)),
                        conversation_line({{"first_name", "Grace"}, {"email", "g@navy.mil"}}, {},
                                          timestamp_from_now(-3000ms))});
  auto count_for = [&](const std::string& term) {
    return items("conversations", "search=" + url_encode(term)).size();
  };
  EXPECT_EQ(count_for("ADA"), 1u);
  EXPECT_EQ(count_for("lovelace"), 1u);
  EXPECT_EQ(count_for("ENGINES.IO"), 1u);
  EXPECT_EQ(count_for("analytical"), 1u);
  EXPECT_EQ(count_for("navy"), 1u);
  EXPECT_EQ(count_for("nobody"), 0u);
  EXPECT_EQ(count_for(""), 2u);
}

TEST_F(ListsTest, TagFilterIsExactAndCaseSensitive) {
  create_contact({{"first_name", "A"}, {"tags", json::array{"VIP", "b2b"}}});
  create_contact({{"first_name", "B"}, {"tags", json::array{"vip"}}});
  create_contact({{"first_name", "C"}, {"tags", json::array{"vip2"}}});
  auto firsts_for = [&](const std::string& tag) {
    std::set<std::string> names;
    for (const auto& i : items("contacts", "tag=" + url_encode(tag))) {
      names.insert(str(i.as_object().at("first_name")));
    }
    return names;
  };
  EXPECT_EQ(firsts_for("vip"), (std::set<std::string>{"B"}));
  EXPECT_EQ(firsts_for("VIP"), (std::set<std::string>{"A"}));
  EXPECT_EQ(firsts_for("vi"), std::set<std::string>{});
  EXPECT_EQ(firsts_for("b2b"), (std::set<std::string>{"A"}));
  EXPECT_EQ(total_count(list("contacts", "tag=vip")), 1);

  import_lines(ws_.id, {conversation_line({{"first_name", "X"}}, {}, timestamp_from_now(-1000ms),
                                          "open", {"Urgent"}),
                        conversation_line({{"first_name", "Y"}}, {}, timestamp_from_now(-2000ms),
                                          "open", {"urgent", "x"})});
  EXPECT_EQ(items("conversations", "tag=urgent").size(), 1u);
  EXPECT_EQ(items("conversations", "tag=Urgent").size(), 1u);
  EXPECT_EQ(items("conversations", "tag=urg").size(), 0u);
}

TEST_F(ListsTest, EmptyQueryValuesAre400) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"leads", "limit"},         {"leads", "page"},           {"leads", "cursor"},
      {"leads", "sort"},          {"leads", "stage"},          {"leads", "id"},
      {"contacts", "limit"},      {"contacts", "cursor"},      {"contacts", "sort"},
      {"contacts", "tag"},        {"contacts", "id"},          {"conversations", "status"},
      {"conversations", "tag"},   {"conversations", "cursor"}, {"conversations", "sort"},
      {"conversations", "limit"}, {"conversations", "id"},
  };
  for (const auto& [resource, param] : cases) {
    SCOPED_TRACE(resource + "?" + param + "=");
    EXPECT_TRUE(is_error(list(resource, param + "="), 400, param));
  }
}

TEST_F(ListsTest, UnknownQueryParametersAre400AndNamed) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"leads", "foo"},    {"leads", "tag"},           {"leads", "status"},
      {"leads", "Limit"},  {"contacts", "stage"},      {"contacts", "status"},
      {"contacts", "foo"}, {"conversations", "stage"}, {"conversations", "foo_bar"},
  };
  for (const auto& [resource, param] : cases) {
    SCOPED_TRACE(resource + "?" + param);
    EXPECT_TRUE(is_error(list(resource, param + "=1"), 400, param));
  }
  std::string id = str(create_lead({{"visitor_name", "A"}}).at("id"));
  EXPECT_TRUE(is_error(del("/leads?id=" + id + "&force=1"), 400, "force"));
  EXPECT_TRUE(
      is_error(patch("/leads?id=" + id + "&x=1", json::object{{"need_summary", "n"}}), 400, "x"));
  EXPECT_EQ(total_count(list("leads", "")), 1);
}

}  // namespace
}  // namespace leadline_test
