// Connection discipline of the SQLite engine: which connection and transaction each access gets.
#include "store/sqlite/sqlite_engine.hpp"

#include <algorithm>
#include <string>
#include <thread>

#include "store/schema/migration_runner.hpp"
#include "store/sqlite/sqlite_migrations.hpp"

namespace leadline::store::sqlite {

namespace {

constexpr int kWalCheckpointPages = 4000;

// Enough idle read connections for every server thread; more open under bursts.
std::size_t idle_readers() {
  return std::max<std::size_t>(4, 2 * std::thread::hardware_concurrency());
}

}  // namespace

SqliteEngine::SqliteEngine(const std::string& path, const domain::Clock& clock)
    : writer_(std::make_unique<Connection>(path)), readers_(path, idle_readers()) {
  // An INSERT ... SELECT into a table with triggers first copies its rows into a temporary
  // table; an import's chunk (up to 16,384 rows) spilled it to a file, one small pwrite at a
  // time (2.8 million for 20,000 conversations with 200,000 messages, against 0.6 million
  // without the conversation version triggers). Kept in memory, the import costs what it did
  // before those triggers. Readers keep the default: a large sort of theirs spills to disk
  // rather than grow the process.
  writer_->execute_script("PRAGMA temp_store = MEMORY");
  // The writer checkpoints after a commit once the WAL holds this many pages (16 MiB; SQLite's
  // default is 1,000). A checkpoint writes each page changed since the last one once, so pages
  // that every write touches (index roots and right edges, counts, versions) are written once
  // per 4,000 WAL pages rather than per 1,000, and the database is fsynced a quarter as often.
  // The price is a longer pause for the writes waiting behind a checkpoint: side by side under
  // 64 PATCH writers, 1,000 / 2,000 / 4,000 / 8,000 pages made 9.1 / 9.9 / 10.6 / 10.4k per s
  // with a p99 of 25 / 36 / 56 / 90 ms (BENCHMARKS.md, "Round 9"). The WAL file stays that size.
  writer_->execute_script("PRAGMA wal_autocheckpoint = " + std::to_string(kWalCheckpointPages));
  Transaction tx(*writer_, Transaction::Kind::kWrite);
  apply_migrations(*writer_, migrations(), clock.now());
  tx.commit();
}

void SqliteEngine::run(Access access, Work work) {
  switch (access) {
    case Access::kRead: {
      auto lease = readers_.acquire();
      work(lease.conn());
      return;
    }
    case Access::kSnapshot: {
      auto lease = readers_.acquire();
      Transaction tx(lease.conn(), Transaction::Kind::kRead);
      work(lease.conn());
      tx.commit();
      return;
    }
    case Access::kWrite:
      group_.run(work);
      return;
  }
}

}  // namespace leadline::store::sqlite
