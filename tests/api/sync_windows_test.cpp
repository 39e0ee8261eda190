// Incremental sync windows on /leads, /contacts and /conversations: updated_since (inclusive)
// and updated_before (exclusive) with every filter, sort and paging mode, total_count, the
// record-format rule, and cursors bound to their window.

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "support/fixture.hpp"

namespace leadline_test {
namespace {

// A window in Unix ms; either bound may be absent.
struct Window {
  std::optional<std::int64_t> since;
  std::optional<std::int64_t> before;

  std::string query() const {
    std::string q;
    if (since) q += "updated_since=" + format_timestamp(*since);
    if (before)
      q += std::string(q.empty() ? "" : "&") + "updated_before=" + format_timestamp(*before);
    return q;
  }
  bool holds(std::int64_t t) const { return (!since || t >= *since) && (!before || t < *before); }
};

std::string join(const std::string& a, const std::string& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return a + "&" + b;
}

class SyncWindowsTest : public ApiTest {
 protected:
  HttpResponse list(const std::string& resource, const std::string& query) {
    return get("/" + resource + (query.empty() ? "" : "?" + query));
  }

  // Every item of one page of at most 100 (asserting it is the whole list).
  json::array whole(const std::string& resource, const std::string& query) {
    HttpResponse r = list(resource, join("limit=100", query));
    if (r.status != 200 || !is_list_envelope(r)) throw std::runtime_error(r.describe());
    EXPECT_FALSE(r.object().at("pagination").as_object().at("has_more").as_bool());
    return r.data().as_array();
  }

  // The ids of the items of `all` (an unwindowed list, in its order) that `window` holds.
  static std::vector<std::string> in_window(const json::array& all, const std::string& field,
                                            const Window& window) {
    std::vector<std::string> ids;
    for (const auto& item : all) {
      if (window.holds(timestamp_millis(str(item.at(field))))) ids.push_back(str(item.at("id")));
    }
    return ids;
  }

  enum class Paging { kCursor, kPageNumber };

  // Ids of every page, following next_cursor or asking for page=1, 2, ... until a page says
  // there is no more, checking total_count on each.
  std::vector<std::string> walk(Paging paging, const std::string& resource,
                                const std::string& query, int limit, std::int64_t expected_total) {
    std::vector<std::string> ids;
    std::string cursor;
    for (int page = 1; page < 200; ++page) {
      std::string q = "limit=" + std::to_string(limit);
      if (paging == Paging::kPageNumber) q += "&page=" + std::to_string(page);
      q = join(q, query);
      if (!cursor.empty()) q += "&cursor=" + url_encode(cursor);
      HttpResponse r = list(resource, q);
      EXPECT_TRUE(is_list_envelope(r)) << r.describe();
      if (!is_list_envelope(r)) return ids;
      const auto& p = r.object().at("pagination").as_object();
      EXPECT_EQ(p.at("total_count").as_int64(), expected_total) << q;
      for (auto& id : ids_of(r.data().as_array())) ids.push_back(id);
      if (!p.at("has_more").as_bool()) return ids;
      if (paging == Paging::kCursor) cursor = str(p.at("next_cursor"));
    }
    ADD_FAILURE() << "walk did not end";
    return ids;
  }

  // For each window, filter and sort: the windowed list (one page, cursor pages and `page`
  // pages) equals the unwindowed list of the same filter and sort cut to the window.
  void expect_windows_cut_lists(const std::string& resource, const std::string& field,
                                const std::vector<Window>& windows,
                                const std::vector<std::string>& filters,
                                const std::vector<std::string>& sorts) {
    for (const auto& filter : filters) {
      for (const auto& sort : sorts) {
        const std::string base = join(filter, sort);
        const json::array all = whole(resource, base);
        for (const auto& window : windows) {
          const std::string q = join(base, window.query());
          SCOPED_TRACE(resource + "?" + q);
          const auto expected = in_window(all, field, window);
          const auto n = static_cast<std::int64_t>(expected.size());
          HttpResponse one = list(resource, join("limit=100", q));
          ASSERT_TRUE(is_list_envelope(one)) << one.describe();
          EXPECT_EQ(ids_of(one.data().as_array()), expected);
          EXPECT_EQ(total_count(one), n);
          EXPECT_EQ(walk(Paging::kCursor, resource, q, 3, n), expected);
          EXPECT_EQ(walk(Paging::kPageNumber, resource, q, 4, n), expected);
        }
      }
    }
  }

  // Windows around the values of `field` in `items`: bounds on existing values (inclusive and
  // exclusive at a record), one-sided, and one that holds nothing.
  static std::vector<Window> windows_over(const json::array& items, const std::string& field) {
    std::vector<std::int64_t> t;
    for (const auto& i : items) t.push_back(timestamp_millis(str(i.at(field))));
    std::sort(t.begin(), t.end());
    const auto at = [&](double share) {
      return t[static_cast<std::size_t>(share * (t.size() - 1))];
    };
    return {
        {at(0.25), at(0.75)},         {at(0.5), std::nullopt}, {std::nullopt, at(0.5)},
        {at(0.1), at(0.1) + 1},       {t.front(), t.back()},   {t.back(), t.back() + 1},
        {t.back() + 1, std::nullopt}, {at(0.3), at(0.35) + 1},
    };
  }

  // Leads whose created_at (and so updated_at) is given, in pairs sharing one value, then a
  // few PATCHed now so that updated_at and created_at orders differ.
  json::array seed_leads() {
    std::vector<json::value> lines;
    for (int i = 0; i < 24; ++i) {
      json::object o{
          {"type", "lead"},
          {"visitor_name", (i % 3 == 0 ? "Acme " : "Other ") + std::to_string(i)},
          {"pipeline_stage", i % 2 ? "qualified" : "new"},
          {"created_at", timestamp_from_now(std::chrono::seconds(-10000 + (i / 2) * 7))}};
      if (i % 4) o["lead_score"] = (i * 37) % 10;
      lines.push_back(o);
    }
    import_lines(ws_.id, lines);
    json::array all = list_all("leads", "sort=created_at:asc");
    for (std::size_t i : {1u, 6u, 15u}) {
      EXPECT_STATUS(patch("/leads?id=" + str(all[i].at("id")), {{"need_summary", "changed"}}),
                    200u);
    }
    return list_all("leads");
  }

  std::string window_cursor(const std::string& resource, const std::string& query) {
    HttpResponse r = list(resource, join("limit=2", query));
    if (!is_list_envelope(r) || !r.object().at("pagination").as_object().at("has_more").as_bool()) {
      throw std::runtime_error("expected a first page with more\n" + r.describe());
    }
    return str(r.object().at("pagination").as_object().at("next_cursor"));
  }
};

TEST_F(SyncWindowsTest, SinceIsInclusiveAndBeforeExclusiveAtARecordsOwnTimestamp) {
  const json::array leads = seed_leads();
  for (const auto& lead : leads) {
    const std::string id = str(lead.at("id"));
    const std::string t = str(lead.at("updated_at"));
    SCOPED_TRACE(id + " updated_at " + t);
    const auto since = ids_of(whole("leads", "updated_since=" + t));
    EXPECT_NE(std::find(since.begin(), since.end(), id), since.end());
    const auto before = ids_of(whole("leads", "updated_before=" + t));
    EXPECT_EQ(std::find(before.begin(), before.end(), id), before.end());
    // since and before partition the list.
    EXPECT_EQ(since.size() + before.size(), leads.size());
    const auto exact = ids_of(whole("leads", "updated_since=" + t + "&updated_before=" +
                                                 format_timestamp(timestamp_millis(t) + 1)));
    EXPECT_NE(std::find(exact.begin(), exact.end(), id), exact.end());
    for (const auto& other : exact) {
      EXPECT_EQ(str(get_one("leads", other).at("updated_at")), t);
    }
  }
}

TEST_F(SyncWindowsTest, LeadWindowsCombineWithStageSearchEverySortAndBothPagings) {
  const json::array leads = seed_leads();
  expect_windows_cut_lists("leads", "updated_at", windows_over(leads, "updated_at"),
                           {"", "stage=qualified", "search=acme", "stage=new&search=acme"},
                           {"", "sort=updated_at:asc", "sort=updated_at:desc",
                            "sort=lead_score:desc", "sort=visitor_name", "sort=created_at:asc"});
}

TEST_F(SyncWindowsTest, ContactWindowsApplyToLastActivityWithTagSearchEverySortAndPaging) {
  std::vector<json::value> lines;
  for (int i = 0; i < 20; ++i) {
    json::object o{{"type", "contact"},
                   {"first_name", (i % 3 == 0 ? "Acme" : "Other") + std::to_string(i)},
                   {"tags", i % 2 ? json::array{"vip"} : json::array{}},
                   {"created_at", timestamp_from_now(std::chrono::seconds(-9000 + (i / 2) * 11))}};
    if (i % 4) o["email"] = "c" + std::to_string(i) + "@example.com";
    lines.push_back(o);
  }
  import_lines(ws_.id, lines);
  json::array all = list_all("contacts", "sort=created_at:asc");
  for (std::size_t i : {2u, 9u}) {
    EXPECT_STATUS(patch("/contacts?id=" + str(all[i].at("id")), {{"profile_notes", "x"}}), 200u);
  }
  const json::array contacts = list_all("contacts");
  expect_windows_cut_lists("contacts", "last_activity", windows_over(contacts, "last_activity"),
                           {"", "tag=vip", "search=acme"},
                           {"", "sort=last_activity", "sort=last_activity:desc", "sort=name",
                            "sort=email:desc", "sort=created_at:asc"});
}

TEST_F(SyncWindowsTest, AContactPatchMovesItsLastActivityIntoALaterWindow) {
  const json::object contact = create_contact({{"first_name", "Mover"}});
  const json::object other = create_contact({{"first_name", "Stayer"}});
  const std::string id = str(contact.at("id"));
  const std::int64_t before_patch =
      std::max(timestamp_millis(str(get_one("contacts", id).at("last_activity"))),
               timestamp_millis(str(get_one("contacts", str(other.at("id"))).at("last_activity"))));
  const Window later{before_patch + 1, std::nullopt};
  const Window earlier{std::nullopt, before_patch + 1};
  EXPECT_TRUE(ids_of(whole("contacts", later.query())).empty());
  EXPECT_EQ(total_count(list("contacts", earlier.query())), 2);

  // The server's clock moves on in milliseconds; a PATCH stamps a later one.
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_STATUS(patch("/contacts?id=" + id, {{"company_name", "Moved Ltd"}}), 200u);
  const std::string moved = str(get_one("contacts", id).at("last_activity"));
  EXPECT_GT(timestamp_millis(moved), before_patch);
  EXPECT_EQ(ids_of(whole("contacts", later.query())), std::vector<std::string>{id});
  EXPECT_EQ(ids_of(whole("contacts", earlier.query())),
            std::vector<std::string>{str(other.at("id"))});
  EXPECT_EQ(total_count(list("contacts", "updated_since=" + moved)), 1);
  EXPECT_EQ(total_count(list("contacts", "updated_before=" + moved)), 1);
}

TEST_F(SyncWindowsTest, ConversationWindowsCombineWithStatusTagSearchEverySortAndPaging) {
  std::vector<json::value> lines;
  for (int i = 0; i < 18; ++i) {
    const std::string created = timestamp_from_now(std::chrono::seconds(-8000 + (i / 2) * 13));
    const std::string message =
        timestamp_from_now(std::chrono::seconds(-7000 + ((i * 5) % 18) * 9));
    lines.push_back(
        conversation_line({{"first_name", (i % 3 == 0 ? "Acme" : "Other") + std::to_string(i)},
                           {"email", "v" + std::to_string(i) + "@example.com"}},
                          {message_line("hello", message)}, created, i % 2 ? "open" : "archived",
                          i % 4 < 2 ? json::array{"vip"} : json::array{}));
  }
  import_lines(ws_.id, lines);
  const json::array conversations = list_all("conversations");
  expect_windows_cut_lists("conversations", "updated_at", windows_over(conversations, "updated_at"),
                           {"", "status=open", "tag=vip", "search=acme", "status=archived&tag=vip"},
                           {"", "sort=updated_at", "sort=updated_at:desc", "sort=created_at:asc"});
}

TEST_F(SyncWindowsTest, TotalCountCountsTheWindowNotTheWorkspace) {
  const json::array leads = seed_leads();
  for (const auto& window : windows_over(leads, "updated_at")) {
    SCOPED_TRACE(window.query());
    const auto expected = static_cast<std::int64_t>(in_window(leads, "updated_at", window).size());
    EXPECT_EQ(total_count(list("leads", join("limit=1", window.query()))), expected);
    EXPECT_EQ(total_count(list("leads", join("limit=1&page=2", window.query()))), expected);
    std::int64_t qualified = 0;
    for (const auto& lead : leads) {
      if (str(lead.at("pipeline_stage")) == "qualified" &&
          window.holds(timestamp_millis(str(lead.at("updated_at"))))) {
        ++qualified;
      }
    }
    EXPECT_EQ(total_count(list("leads", join("limit=1&stage=qualified", window.query()))),
              qualified);
  }
}

TEST_F(SyncWindowsTest, ABoundOutsideTheRecordFormatIs400NamingTheParameter) {
  for (const char* resource : {"leads", "contacts", "conversations"}) {
    for (const char* name : {"updated_since", "updated_before"}) {
      for (const char* bad : {"", "2026-03-01T10:00:00Z", "2026-03-01T10:00:00.000z",
                              "2026-03-01T10:00:00.000%2B00:00", "2026-03-01", "garbage",
                              "2026-02-31T10:00:00.000Z", "2026-03-01T10:00:00.12Z"}) {
        const std::string q = std::string(name) + "=" + bad;
        SCOPED_TRACE(std::string(resource) + "?" + q);
        HttpResponse r = list(resource, q);
        EXPECT_TRUE(is_error(r, 400,
                             std::string(name) + " must be a timestamp in the record format "
                                                 "YYYY-MM-DDTHH:MM:SS.mmmZ"));
      }
    }
    const std::string since = "updated_since=2026-03-01T10:00:00.000Z";
    for (const char* before :
         {"2026-03-01T10:00:00.000Z", "2026-03-01T09:59:59.999Z", "2025-01-01T00:00:00.000Z"}) {
      SCOPED_TRACE(std::string(resource) + " before " + before);
      EXPECT_TRUE(is_error(list(resource, since + "&updated_before=" + before), 400,
                           "updated_before must be later than updated_since"));
    }
    EXPECT_STATUS(list(resource, since + "&updated_before=2026-03-01T10:00:00.001Z"), 200u);
  }
}

TEST_F(SyncWindowsTest, ACursorIsBoundToItsWindow) {
  const json::array leads = seed_leads();
  const Window wide{timestamp_millis(str(leads.back().at("updated_at"))), std::nullopt};
  const Window other{*wide.since, timestamp_millis(str(leads.front().at("updated_at"))) + 1};
  const Window shifted{*wide.since + 1, std::nullopt};
  const Window before_only{std::nullopt, *other.before};
  struct Case {
    std::string origin;
    std::string reuse;
  };
  const std::vector<Case> cases = {
      {wide.query(), other.query()},
      {wide.query(), shifted.query()},
      {wide.query(), ""},
      {"", wide.query()},
      {wide.query(), before_only.query()},
      {before_only.query(), Window{std::nullopt, *before_only.before + 1}.query()},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE("leads: cursor of '" + c.origin + "' used with '" + c.reuse + "'");
    const std::string cursor = window_cursor("leads", c.origin);
    EXPECT_TRUE(
        is_error(list("leads", join("limit=2&cursor=" + url_encode(cursor), c.reuse)), 400));
    EXPECT_STATUS(list("leads", join("limit=2&cursor=" + url_encode(cursor), c.origin)), 200u);
  }
  // The same holds on the other lists.
  for (int i = 0; i < 4; ++i) create_contact({{"first_name", "C" + std::to_string(i)}});
  const json::array contacts = list_all("contacts");
  const Window contact_window{timestamp_millis(str(contacts.back().at("last_activity"))),
                              std::nullopt};
  const std::string contact_cursor = window_cursor("contacts", contact_window.query());
  EXPECT_TRUE(is_error(list("contacts", "limit=2&cursor=" + url_encode(contact_cursor)), 400));
  EXPECT_STATUS(list("contacts",
                     join("limit=2&cursor=" + url_encode(contact_cursor), contact_window.query())),
                200u);
  std::vector<json::value> lines;
  for (int i = 0; i < 4; ++i) {
    lines.push_back(conversation_line({{"first_name", "V" + std::to_string(i)}},
                                      {message_line("m", timestamp_from_now(-1h))},
                                      timestamp_from_now(-2h)));
  }
  import_lines(ws_.id, lines);
  const std::string conversation_cursor = window_cursor("conversations", "");
  EXPECT_TRUE(
      is_error(list("conversations", "limit=2&updated_since=2000-01-01T00:00:00.000Z&cursor=" +
                                         url_encode(conversation_cursor)),
               400));
}

}  // namespace
}  // namespace leadline_test
