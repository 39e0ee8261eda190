// SQLite's plans of the lists with a sync window (updated_since / updated_before). Without
// statistics (leadline never runs ANALYZE) a plan depends on the schema and the SQL only, so an
// empty database shows the plan of any size of workspace.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <functional>
#include <sstream>
#include <string>

#include "store/contact_store.hpp"
#include "store/conversation_store.hpp"
#include "store/database.hpp"
#include "store/lead_store.hpp"
#include "store/sql/list_page.hpp"
#include "store/sqlite/sqlite_dialect.hpp"
#include "temp_dir.hpp"

namespace leadline::store::testing {
namespace {

using leadline::unit_test::TempDir;

// Counts on either side of kMatchDrivenLimit: the page run_list reads after each.
constexpr std::int64_t kFew = 10;
constexpr std::int64_t kMany = 100'000;

const UpdatedWindow kWindow{domain::Timestamp{1'700'000'000'000},
                            domain::Timestamp{1'700'000'060'000}};
const UpdatedWindow kSinceOnly{domain::Timestamp{1'700'000'000'000}, std::nullopt};

class SqliteWindowPlanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string file = (dir_.path() / "plans.db").string();
    open_database("sqlite:" + file);  // creates the schema
    ASSERT_EQ(sqlite3_open_v2(file.c_str(), &db_, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  }
  void TearDown() override { sqlite3_close(db_); }

  // EXPLAIN QUERY PLAN's details, one line each. Unbound parameters do not change a plan made
  // without statistics.
  std::string plan(const std::string& sql) {
    sqlite3_stmt* stmt = nullptr;
    const std::string explain = "EXPLAIN QUERY PLAN " + sql;
    if (sqlite3_prepare_v2(db_, explain.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
      ADD_FAILURE() << sqlite3_errmsg(db_) << "\n" << sql;
      return {};
    }
    std::string out;
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      out += reinterpret_cast<const char*>(sqlite3_column_text(stmt, 3));
      out += '\n';
    }
    sqlite3_finalize(stmt);
    return out;
  }

  TempDir dir_;
  sqlite3* db_ = nullptr;
  domain::WorkspaceId ws_{"0190f5a0-0000-7000-8000-000000000001"};
};

// How the plan reads the list's own table (`alias`): the one line that names it.
std::string table_access(const std::string& plan, const std::string& alias) {
  std::istringstream lines(plan);
  for (std::string line; std::getline(lines, line);) {
    for (const std::string verb : {"SEARCH ", "SCAN "}) {
      if (line == verb + alias || line.starts_with(verb + alias + " ")) return line;
    }
  }
  return "(no access to " + alias + ")";
}

// The table is read through the window's index, bounded by the window (never the whole
// workspace), and, with `sorted`, in the page's order (no sorter).
void expect_window_read(const std::string& title, const std::string& plan, const std::string& alias,
                        const std::string& index, const std::string& column, bool sorted) {
  SCOPED_TRACE(title + "\n" + plan);
  const std::string access = table_access(plan, alias);
  EXPECT_NE(access.find("USING INDEX " + index), std::string::npos) << access;
  EXPECT_NE(access.find("(workspace_id=? AND " + column + ">?"), std::string::npos) << access;
  if (sorted) {
    EXPECT_EQ(plan.find("TEMP B-TREE"), std::string::npos);
  }
}

void expect_count_read(const std::string& title, const std::string& plan, const std::string& alias,
                       const std::string& index, const std::string& column) {
  SCOPED_TRACE(title + "\n" + plan);
  const std::string access = table_access(plan, alias);
  EXPECT_NE(access.find(" INDEX " + index + " (workspace_id=? AND " + column + ">?"),
            std::string::npos)
      << access;
}

// The page walks the sort's index (no sorter) rather than reading every row of a wide window.
void expect_sort_walk(const std::string& title, const std::string& plan, const std::string& alias,
                      const std::string& window_index) {
  SCOPED_TRACE(title + "\n" + plan);
  const std::string access = table_access(plan, alias);
  EXPECT_EQ(access.find(window_index), std::string::npos) << access;
  EXPECT_EQ(plan.find("TEMP B-TREE"), std::string::npos);
}

// A search's matches drive the page and the count: the table is read by rowid only.
void expect_search_read(const std::string& title, const std::string& plan,
                        const std::string& alias) {
  SCOPED_TRACE(title + "\n" + plan);
  const std::string access = table_access(plan, alias);
  EXPECT_NE(access.find("INTEGER PRIMARY KEY (rowid=?)"), std::string::npos) << access;
}

struct Resource {
  std::string name;
  std::string alias;
  std::string index;
  std::string column;
  // The statements for a window, a filter ("" none, or "stage", "status", "tag", "search"),
  // whether the sort is on the window's column, and a count.
  std::function<sql::ListStatements(const UpdatedWindow&, const std::string&, bool,
                                    std::optional<std::int64_t>)>
      statements;
  std::vector<std::string> filters;
};

std::vector<Resource> resources(const domain::WorkspaceId& ws) {
  const auto& dialect = sqlite::sqlite_dialect();
  return {
      {"leads",
       "l",
       "leads_by_updated",
       "updated_at",
       [&dialect, ws](const UpdatedWindow& w, const std::string& filter, bool by_window,
                      std::optional<std::int64_t> count) {
         LeadListQuery q;
         q.updated = w;
         if (filter == "stage") q.stage = domain::PipelineStage::kQualified;
         if (filter == "search") q.search_folded = "acme";
         if (by_window) q.sort = {LeadSortField::kUpdatedAt, SortDirection::kDesc};
         return lead_list_statements(dialect, ws, q, count);
       },
       {"", "stage", "search"}},
      {"contacts",
       "c",
       "contacts_by_activity",
       "last_activity",
       [&dialect, ws](const UpdatedWindow& w, const std::string& filter, bool by_window,
                      std::optional<std::int64_t> count) {
         ContactListQuery q;
         q.updated = w;
         if (filter == "tag") q.tag = "vip";
         if (filter == "search") q.search_folded = "acme";
         if (by_window) q.sort = {ContactSortField::kLastActivity, SortDirection::kAsc};
         return contact_list_statements(dialect, ws, q, count);
       },
       {"", "tag", "search"}},
      {"conversations",
       "cv",
       "conversations_by_updated",
       "updated_at",
       [&dialect, ws](const UpdatedWindow& w, const std::string& filter, bool by_window,
                      std::optional<std::int64_t> count) {
         ConversationListQuery q;
         q.updated = w;
         if (filter == "status") q.status = domain::ConversationStatus::kOpen;
         if (filter == "tag") q.tag = "vip";
         if (filter == "search") q.search_folded = "acme";
         if (by_window) q.sort = {ConversationSortField::kUpdatedAt, SortDirection::kDesc};
         return conversation_list_statements(dialect, ws, q, count);
       },
       {"", "status", "tag", "search"}},
  };
}

// A lead search's total_count is counted inside the trigram index, within the workspace's
// rowid range (migration 0009): no lead row is read to check its workspace. With another
// filter the matches are still looked up by rowid.
TEST_F(SqliteWindowPlanTest, ALeadSearchCountsFromTheTrigramIndexAlone) {
  LeadListQuery q;
  q.search_folded = "zephyr";
  const std::string p = plan(lead_list_statements(sqlite::sqlite_dialect(), ws_, q, {}).count_sql);
  SCOPED_TRACE(p);
  EXPECT_EQ(table_access(p, "l"), "(no access to l)");
  EXPECT_NE(p.find("SCAN leads_search VIRTUAL TABLE INDEX 0:M1><"), std::string::npos);
  q.stage = domain::PipelineStage::kLost;
  expect_search_read("search and stage",
                     plan(lead_list_statements(sqlite::sqlite_dialect(), ws_, q, {}).count_sql),
                     "l");
}

TEST_F(SqliteWindowPlanTest, TheCountReadsTheWindowThroughItsIndex) {
  for (const auto& r : resources(ws_)) {
    for (const auto& [window, shape] :
         {std::pair{kWindow, "since+before"}, std::pair{kSinceOnly, "since"}}) {
      for (const auto& filter : r.filters) {
        for (bool by_window : {false, true}) {
          const std::string title = r.name + " count, window " + shape + ", filter '" + filter +
                                    "', sort " + (by_window ? r.column : "created_at");
          const auto st = r.statements(window, filter, by_window, std::nullopt);
          const std::string p = plan(st.count_sql);
          // A lead or contact search counts from its trigram index (as without a window).
          if (filter == "search" && r.name != "conversations") {
            expect_search_read(title, p, r.alias);
          } else {
            expect_count_read(title, p, r.alias, r.index, r.column);
          }
        }
      }
    }
  }
}

TEST_F(SqliteWindowPlanTest, APageSortedByTheWindowsColumnWalksTheWindowsIndex) {
  for (const auto& r : resources(ws_)) {
    for (const auto& filter : r.filters) {
      for (const std::int64_t count : {kFew, kMany}) {
        const std::string title = r.name + " page sorted by " + r.column + ", filter '" + filter +
                                  "', count " + std::to_string(count);
        const auto st = r.statements(kWindow, filter, true, count);
        const std::string p = plan(st.page_sql);
        if (filter == "search" && count == kFew && r.name != "conversations") {
          expect_search_read(title, p, r.alias);  // reads the few matches and sorts them
        } else {
          expect_window_read(title, p, r.alias, r.index, r.column, true);
        }
      }
    }
  }
}

TEST_F(SqliteWindowPlanTest, APageSortedOtherwiseReadsANarrowWindowAndWalksTheSortForAWideOne) {
  for (const auto& r : resources(ws_)) {
    for (const auto& [window, shape] :
         {std::pair{kWindow, "since+before"}, std::pair{kSinceOnly, "since"}}) {
      for (const auto& filter : r.filters) {
        const std::string title =
            r.name + " page sorted by created_at, window " + shape + ", filter '" + filter + "'";
        const std::string few = plan(r.statements(window, filter, false, kFew).page_sql);
        if (filter == "search" && r.name != "conversations") {
          expect_search_read(title + ", few matches", few, r.alias);
        } else {
          expect_window_read(title + ", few matches", few, r.alias, r.index, r.column, false);
        }
        expect_sort_walk(title + ", many matches",
                         plan(r.statements(window, filter, false, kMany).page_sql), r.alias,
                         r.index);
      }
    }
  }
}

// A tag filter goes through the tag's rows (migration 0010): alone, it counts from
// record_counts; with another filter, the count and a page of few matches read the tag's rows and
// look each record up by id; a page of many walks the sort's index and looks each row up among
// the tag's rows. No plan reads the workspace's records to test their tag arrays.
TEST_F(SqliteWindowPlanTest, ATagListReadsTheTagsRows) {
  const auto& dialect = sqlite::sqlite_dialect();
  ContactListQuery contacts;
  contacts.tag = "vip";
  std::string p = plan(contact_list_statements(dialect, ws_, contacts, {}).count_sql);
  EXPECT_EQ(table_access(p, "c"), "(no access to c)") << p;
  EXPECT_NE(p.find("record_counts"), std::string::npos) << p;

  ConversationListQuery conversations;
  conversations.tag = "vip";
  conversations.status = domain::ConversationStatus::kOpen;
  const auto few = [&](const std::string& title, const std::string& p, const std::string& alias) {
    SCOPED_TRACE(title + "\n" + p);
    EXPECT_NE(table_access(p, alias).find("(id=?)"), std::string::npos);
    EXPECT_NE(p.find("PRIMARY KEY (workspace_id=? AND tag=?)"), std::string::npos);
  };
  few("conversations count, tag and status",
      plan(conversation_list_statements(dialect, ws_, conversations, {}).count_sql), "cv");
  few("conversations page, few",
      plan(conversation_list_statements(dialect, ws_, conversations, kFew).page_sql), "cv");
  few("contacts page, few", plan(contact_list_statements(dialect, ws_, contacts, kFew).page_sql),
      "c");
  for (const auto& [title, many] :
       {std::pair{"contacts page, many",
                  contact_list_statements(dialect, ws_, contacts, kMany).page_sql},
        std::pair{"conversations page, many",
                  conversation_list_statements(dialect, ws_, conversations, kMany).page_sql}}) {
    p = plan(many);
    SCOPED_TRACE(std::string(title) + "\n" + p);
    EXPECT_EQ(p.find("TEMP B-TREE"), std::string::npos);
    EXPECT_NE(p.find("PRIMARY KEY (workspace_id=? AND tag=? AND "), std::string::npos);
  }
}

// Cursor pages add the keyset condition; the window's index must still bound the read.
TEST_F(SqliteWindowPlanTest, KeysetPagesKeepTheirPlans) {
  LeadListQuery q;
  q.updated = kWindow;
  q.page.after = KeysetPosition{{std::int64_t{1'700'000'030'000}}, "x"};
  const auto& dialect = sqlite::sqlite_dialect();
  expect_window_read("leads keyset page, few",
                     plan(lead_list_statements(dialect, ws_, q, kFew).page_sql), "l",
                     "leads_by_updated", "updated_at", false);
  expect_sort_walk("leads keyset page, many",
                   plan(lead_list_statements(dialect, ws_, q, kMany).page_sql), "l",
                   "leads_by_updated");
  q.sort = {LeadSortField::kUpdatedAt, SortDirection::kAsc};
  expect_window_read("leads keyset page sorted by updated_at",
                     plan(lead_list_statements(dialect, ws_, q, kMany).page_sql), "l",
                     "leads_by_updated", "updated_at", true);
}

// An import adds its conversations to a thousand stored contacts per statement: each contact is
// found by its key, the tuples read once, never the workspace's contacts walked.
TEST_F(SqliteWindowPlanTest, AnImportsContactUpdateFindsEachContactByItsKey) {
  const std::string p = plan(contacts_conversation_gain_sql(sqlite::sqlite_dialect()));
  SCOPED_TRACE(p);
  EXPECT_LT(p.find("SCAN json_each"), p.find("SEARCH contacts")) << "the tuples drive";
  EXPECT_NE(table_access(p, "contacts").find("(id=?)"), std::string::npos);
}

}  // namespace
}  // namespace leadline::store::testing
