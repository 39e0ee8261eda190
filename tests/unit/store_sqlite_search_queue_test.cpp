// The trigram index's queue (SQLite migration 0015): the search triggers queue their changes and
// each group commit applies them in one statement, so a batch writes one FTS5 segment, the index
// ends each commit with exactly the committed rows, and changes left queued by another writer are
// applied by the next commit.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "store/database.hpp"
#include "store/sqlite/group_commit.hpp"
#include "store/sqlite/search_queue.hpp"
#include "store/sqlite/sqlite_connection.hpp"
#include "store/workspace_store.hpp"
#include "store_group_commit_batch.hpp"
#include "temp_dir.hpp"

namespace leadline::store::sqlite {
namespace {

using leadline::unit_test::TempDir;

class SqliteSearchQueueTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = (dir_.path() / "queue.db").string();
    {
      auto db = open_database("sqlite:" + path_);  // the whole schema
      ws_ = db->workspaces().create("queue").id.value;
    }
    conn_ = std::make_unique<Connection>(path_);
    // Without automerge, every segment written stays countable.
    conn_->execute_script("INSERT INTO leads_search (leads_search, rank) VALUES ('automerge', 0)");
  }

  std::int64_t scalar(const std::string& sql) {
    auto rows = conn_->query(sql);
    rows.next();
    return rows.int64(0);
  }
  std::int64_t matches(const std::string& needle) {
    return scalar("SELECT COUNT(*) FROM leads_search WHERE leads_search MATCH '\"" + needle +
                  "\"'");
  }
  // A lead row with only what the schema requires, at the n-th rowid of the workspace's range.
  void insert_lead(sql::Connection& c, int n, const std::string& text) {
    c.execute(
        "INSERT INTO leads (rowid, id, workspace_id, visitor_name, pipeline_stage, source, "
        "created_at, updated_at, visitor_name_folded, search_folded) "
        "VALUES (((SELECT rowid FROM workspaces WHERE id = ?) << 40) + ?, ?, ?, 'x', 'new', "
        "'api', 1, 1, 'x', ?)",
        sql::Params().text(ws_).int64(n).text("lead-" + std::to_string(n)).text(ws_).text(text));
  }

  TempDir dir_;
  std::string path_;
  std::string ws_;
  std::unique_ptr<Connection> conn_;
};

TEST_F(SqliteSearchQueueTest, ABatchOfCreatedLeadsWritesOneIndexSegment) {
  GroupCommit group(*conn_, apply_search_queues);
  constexpr int kFollowers = 7;
  std::vector<std::function<void(sql::Connection&)>> writes;
  for (int n = 1; n <= kFollowers; ++n) {
    writes.emplace_back([this, n](sql::Connection& c) {
      insert_lead(c, n, "alpha beta gamma " + std::to_string(n));
    });
  }
  testing::run_as_one_batch(group, writes);
  // One statement per created lead, each with the search trigger: written straight into FTS5,
  // each would have made a segment of its own.
  EXPECT_EQ(scalar("SELECT COUNT(DISTINCT segid) FROM leads_search_idx"), 1);
  EXPECT_EQ(matches("beta"), kFollowers);
  EXPECT_EQ(scalar("SELECT COUNT(*) FROM leads_search_queue"), 0);
}

TEST_F(SqliteSearchQueueTest, TheIndexHoldsWhatTheTransactionLeftOfEachRow) {
  GroupCommit group(*conn_, apply_search_queues);
  group.run([&](sql::Connection& c) {
    insert_lead(c, 1, "kept unchanged");
    insert_lead(c, 2, "renamed before");
    insert_lead(c, 3, "deleted soon");
    c.execute("UPDATE leads SET search_folded = 'renamed after' WHERE id = 'lead-2'");
    c.execute("DELETE FROM leads WHERE id = 'lead-3'");
    return true;
  });
  group.run([&](sql::Connection& c) {
    c.execute("UPDATE leads SET search_folded = 'renamed again' WHERE id = 'lead-2'");
    insert_lead(c, 3, "deleted soon, then its rowid reused");
    return true;
  });
  EXPECT_EQ(matches("unchanged"), 1);
  EXPECT_EQ(matches("before"), 0);
  EXPECT_EQ(matches("after"), 0);
  EXPECT_EQ(matches("again"), 1);
  EXPECT_EQ(matches("reused"), 1);
  EXPECT_EQ(matches("deleted soon"), 1);
  EXPECT_EQ(scalar("SELECT COUNT(*) FROM leads_search_queue"), 0);
  // FTS5 compares the index with the leads' text; a wrong 'delete' would fail it.
  EXPECT_NO_THROW(
      conn_->execute_script("INSERT INTO leads_search (leads_search, rank) "
                            "VALUES ('integrity-check', 1)"));
}

TEST_F(SqliteSearchQueueTest, ChangesAnotherWriterLeftQueuedAreAppliedByTheNextCommit) {
  // Another program on the file: a plain transaction, committed without applying the queue.
  conn_->execute_script("BEGIN IMMEDIATE");
  insert_lead(*conn_, 1, "written elsewhere");
  conn_->execute_script("COMMIT");
  EXPECT_EQ(matches("elsewhere"), 0);
  EXPECT_EQ(scalar("SELECT COUNT(*) FROM leads_search_queue"), 1);

  GroupCommit group(*conn_, apply_search_queues);
  group.run([](sql::Connection&) { return true; });
  EXPECT_EQ(matches("elsewhere"), 1);
  EXPECT_EQ(scalar("SELECT COUNT(*) FROM leads_search_queue"), 0);
}

}  // namespace
}  // namespace leadline::store::sqlite
