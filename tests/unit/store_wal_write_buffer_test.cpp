// The WAL write buffer (store/sqlite/wal_write_buffer.cpp): every connection opens through it,
// and what one commits is whole for every other connection the moment COMMIT returns, whatever
// the sync setting, across checkpoints and WAL restarts, and for transactions larger than the
// buffer or than one write of the default VFS.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <string>

#include "store/sqlite/sqlite_connection.hpp"
#include "store/sqlite/wal_write_buffer.hpp"
#include "store_test_fixture.hpp"

namespace leadline::store::sqlite {
namespace {

class WalWriteBufferTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = (dir_.path() / "wal.db").string();
    writer_ = std::make_unique<Connection>(path_);
    writer_->execute_script(
        "CREATE TABLE items (n INTEGER PRIMARY KEY, body TEXT NOT NULL);"
        "CREATE INDEX items_by_body ON items (body)");
    reader_ = std::make_unique<Connection>(path_);
  }

  // Commits `rows` rows numbered from `first`, each with a body of `bytes` bytes naming it.
  void commit_rows(int first, int rows, int bytes) {
    writer_->execute("BEGIN");
    for (int n = first; n < first + rows; ++n) {
      writer_->execute("INSERT INTO items (n, body) VALUES (?, printf('%d:', ?) || zeroblob(?))",
                       sql::Params().int64(n).int64(n).int64(bytes));
    }
    writer_->execute("COMMIT");
  }

  // What the other connection sees: the rows, and whether each body still names its row.
  std::pair<std::int64_t, std::int64_t> seen_by_reader() {
    auto rows = reader_->query(
        "SELECT COUNT(*), SUM(substr(body, 1, length(n) + 1) = n || ':') FROM items");
    rows.next();
    return {rows.int64(0), rows.is_null(1) ? 0 : rows.int64(1)};
  }

  void expect_each_of_50_commits_whole_at_once() {
    for (int batch = 0; batch < 50; ++batch) {
      commit_rows(batch * 20, 20, 300);
      const auto [count, intact] = seen_by_reader();
      ASSERT_EQ(count, (batch + 1) * 20);
      ASSERT_EQ(intact, count);
    }
  }

  store::testing::TempDir dir_;
  std::string path_;
  std::unique_ptr<Connection> writer_;
  std::unique_ptr<Connection> reader_;
};

// The database file is the default VFS's own; the WAL is wrapped.
TEST_F(WalWriteBufferTest, ConnectionsOpenThroughItAndOnlyTheWalIsWrapped) {
  sqlite3_vfs* vfs = nullptr;
  ASSERT_EQ(sqlite3_file_control(writer_->handle(), "main", SQLITE_FCNTL_VFS_POINTER, &vfs),
            SQLITE_OK);
  ASSERT_NE(vfs, nullptr);
  EXPECT_STREQ(vfs->zName, wal_write_buffer_vfs());
  commit_rows(0, 1, 10);
  sqlite3_file* database = nullptr;
  sqlite3_file* wal = nullptr;
  ASSERT_EQ(sqlite3_file_control(writer_->handle(), "main", SQLITE_FCNTL_FILE_POINTER, &database),
            SQLITE_OK);
  ASSERT_EQ(sqlite3_file_control(writer_->handle(), "main", SQLITE_FCNTL_JOURNAL_POINTER, &wal),
            SQLITE_OK);
  ASSERT_NE(database, nullptr);
  ASSERT_NE(wal, nullptr);
  EXPECT_NE(wal->pMethods, database->pMethods);
}

TEST_F(WalWriteBufferTest, ACommitIsWholeForAnotherConnectionAtOnce) {
  expect_each_of_50_commits_whole_at_once();
}

// Without a sync at COMMIT nothing would write the buffer before SQLite publishes the frames:
// the commit frame itself must.
TEST_F(WalWriteBufferTest, ACommitIsWholeEvenWithoutItsSync) {
  writer_->execute_script("PRAGMA synchronous = OFF");
  expect_each_of_50_commits_whole_at_once();
}

// 3 MB in one transaction: more than the buffer (1 MiB) and than one write of the default VFS
// (0x1ffff bytes), with the cache spilling pages to the WAL before the commit.
TEST_F(WalWriteBufferTest, ATransactionLargerThanTheBufferCommitsWhole) {
  writer_->execute_script("PRAGMA cache_size = 50");
  commit_rows(0, 1500, 2000);
  const auto [count, intact] = seen_by_reader();
  EXPECT_EQ(count, 1500);
  EXPECT_EQ(intact, 1500);
  auto check = reader_->query("PRAGMA integrity_check");
  ASSERT_TRUE(check.next());
  EXPECT_EQ(check.text(0), "ok");
}

// Checkpoints move the WAL into the database, and the next write starts the WAL over from its
// first frame (a write that is not an append).
TEST_F(WalWriteBufferTest, CommitsStayWholeAcrossCheckpointsAndWalRestarts) {
  writer_->execute_script("PRAGMA wal_autocheckpoint = 10");
  for (int batch = 0; batch < 40; ++batch) {
    commit_rows(batch * 10, 10, 1500);
    if (batch % 10 == 9) writer_->execute_script("PRAGMA wal_checkpoint(RESTART)");
    const auto [count, intact] = seen_by_reader();
    ASSERT_EQ(count, (batch + 1) * 10);
    ASSERT_EQ(intact, count);
  }
  writer_.reset();
  reader_.reset();
  Connection reopened(path_, Connection::Open::kExisting);
  auto rows = reopened.query("SELECT COUNT(*) FROM items");
  rows.next();
  EXPECT_EQ(rows.int64(0), 400);
  auto check = reopened.query("PRAGMA integrity_check");
  ASSERT_TRUE(check.next());
  EXPECT_EQ(check.text(0), "ok");
}

}  // namespace
}  // namespace leadline::store::sqlite
