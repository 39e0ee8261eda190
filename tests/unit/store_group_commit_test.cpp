// Group commit on the SQLite writer: many threads' writes share transactions, each member's
// outcome is its own (kept, rolled back, or failed) and every member returns only after commit.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <stdexcept>
#include <thread>
#include <vector>

#include "fibers/fiber_thread.hpp"
#include "store/sqlite/group_commit.hpp"
#include "store/sqlite/sqlite_connection.hpp"
#include "store_group_commit_batch.hpp"
#include "store_test_fixture.hpp"

namespace leadline::store::sqlite {
namespace {

std::int64_t row_count(Connection& conn, const std::string& where = "1") {
  auto rows = conn.query("SELECT COUNT(*) FROM items WHERE " + where);
  rows.next();
  return rows.int64(0);
}

class GroupCommitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = (dir_.path() / "group.db").string();
    writer_ = std::make_unique<Connection>(path_);
    writer_->execute_script("CREATE TABLE items (n INTEGER PRIMARY KEY, thread INTEGER NOT NULL)");
  }
  store::testing::TempDir dir_;
  std::string path_;
  std::unique_ptr<Connection> writer_;
};

TEST_F(GroupCommitTest, ConcurrentMembersKeepTheirOwnOutcome) {
  GroupCommit group(*writer_);
  constexpr int kThreads = 16;
  constexpr int kWrites = 40;
  std::atomic<int> thrown{0};
  std::atomic<int> committed_seen_by_reader{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Connection reader(path_);
      for (int i = 0; i < kWrites; ++i) {
        const int n = t * 1000 + i;
        const int kind = i % 4;  // 0, 1: kept; 2: rolled back; 3: throws after writing
        try {
          group.run([&](sql::Connection& c) {
            c.execute("INSERT INTO items (n, thread) VALUES (?, ?)",
                      sql::Params().int64(n).int64(t));
            if (kind == 3) throw std::runtime_error("member failed");
            return kind != 2;
          });
        } catch (const std::runtime_error&) {
          ++thrown;
          continue;
        }
        // Returning means committed: another connection sees a kept row at once.
        if (kind < 2) {
          auto rows =
              reader.query("SELECT COUNT(*) FROM items WHERE n = ?", sql::Params().int64(n));
          rows.next();
          if (rows.int64(0) == 1) ++committed_seen_by_reader;
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(thrown.load(), kThreads * kWrites / 4);
  EXPECT_EQ(committed_seen_by_reader.load(), kThreads * kWrites / 2);
  EXPECT_EQ(row_count(*writer_), kThreads * kWrites / 2);
  EXPECT_EQ(row_count(*writer_, "n % 1000 % 4 >= 2"), 0);
  EXPECT_FALSE(writer_->in_transaction());
}

TEST_F(GroupCommitTest, AFailingStatementRollsBackOnlyItsMember) {
  GroupCommit group(*writer_);
  group.run([](sql::Connection& c) {
    c.execute("INSERT INTO items (n, thread) VALUES (1, 0)");
    return true;
  });
  // A constraint violation inside a member is that member's error, not the batch's.
  EXPECT_THROW(group.run([](sql::Connection& c) {
    c.execute("INSERT INTO items (n, thread) VALUES (2, 0)");
    c.execute("INSERT INTO items (n, thread) VALUES (1, 0)");
    return true;
  }),
               SqliteError);
  group.run([](sql::Connection& c) {
    c.execute("INSERT INTO items (n, thread) VALUES (3, 0)");
    return true;
  });
  EXPECT_EQ(row_count(*writer_), 2);
  EXPECT_EQ(row_count(*writer_, "n = 2"), 0);
}

// What a batch writes is written once for all its members: FTS5 adds one index segment per
// batch (a savepoint per member made it write one per member, and made SQLite copy each changed
// page to a statement journal per member).
TEST_F(GroupCommitTest, ABatchWritesOneIndexSegmentForAllItsMembers) {
  writer_->execute_script(
      "CREATE VIRTUAL TABLE docs USING fts5(body);"
      "INSERT INTO docs (docs, rank) VALUES ('automerge', 0)");
  GroupCommit group(*writer_);
  constexpr int kFollowers = 7;
  // Rowids ascend in the order the members run: FTS5 writes out what it holds before a
  // smaller rowid anyway.
  testing::run_as_one_batch(
      group, std::vector<std::function<void(sql::Connection&)>>(kFollowers, [](sql::Connection& c) {
        c.execute("INSERT INTO docs (body) VALUES ('alpha beta gamma')");
      }));
  auto rows = writer_->query("SELECT COUNT(DISTINCT segid) FROM docs_idx");
  rows.next();
  EXPECT_EQ(rows.int64(0), 1);
  auto found = writer_->query("SELECT COUNT(*) FROM docs WHERE docs MATCH 'beta'");
  found.next();
  EXPECT_EQ(found.int64(0), kFollowers);
}

std::atomic<int> commits_seen{0};

// Members waiting on fibers (the server's writes) hold no thread while they wait: twenty of them,
// from one fiber thread, queue behind a held batch together with blocking callers, and all of
// them commit in the one next transaction, each with its own outcome.
TEST_F(GroupCommitTest, MembersOnFibersWaitTogetherWithoutHoldingTheirThread) {
  commits_seen = 0;
  GroupCommit group(*writer_, [](sql::Connection&) { ++commits_seen; });
  testing::HeldBatch held(group);
  std::atomic<int> returned{0};
  std::atomic<int> thrown{0};
  std::vector<std::thread> blocking;
  {
    fibers::FiberThread fibers("test-fibers");
    for (int i = 0; i < 20; ++i) {
      fibers.spawn([&, i] {
        try {
          group.run([i](sql::Connection& c) {
            c.execute("INSERT INTO items (n, thread) VALUES (?, 1)", sql::Params().int64(i));
            if (i % 5 == 4) throw std::runtime_error("member failed");
            return i % 5 != 3;  // 3: rolled back
          });
          ++returned;
        } catch (const std::runtime_error&) {
          ++thrown;
        }
      });
    }
    for (int t = 0; t < 4; ++t) {
      blocking.emplace_back([&, t] {
        group.run([t](sql::Connection& c) {
          c.execute("INSERT INTO items (n, thread) VALUES (?, 2)", sql::Params().int64(100 + t));
          return true;
        });
        ++returned;
      });
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    EXPECT_EQ(returned.load() + thrown.load(), 0);  // nobody returns before its commit
    held.release();
    for (auto& thread : blocking) thread.join();
  }  // the fiber thread ends once every fiber has
  EXPECT_EQ(returned.load(), 20);
  EXPECT_EQ(thrown.load(), 4);
  EXPECT_EQ(row_count(*writer_, "thread = 1"), 12);
  EXPECT_EQ(row_count(*writer_, "thread = 2"), 4);
  EXPECT_EQ(row_count(*writer_, "thread = 1 AND n % 5 >= 3"), 0);
  EXPECT_EQ(commits_seen.load(), 2);  // the held batch, then everyone else's together
}

}  // namespace
}  // namespace leadline::store::sqlite
