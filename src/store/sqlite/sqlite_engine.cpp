// Connection discipline of the SQLite engine: which connection and transaction each access gets.
#include "store/sqlite/sqlite_engine.hpp"

#include <algorithm>
#include <string>
#include <thread>

#include "store/schema/migration_runner.hpp"
#include "store/sqlite/sqlite_migrations.hpp"

namespace leadline::store::sqlite {

namespace {

constexpr int kWalCheckpointPages = 8000;

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
  // The writer checkpoints after a commit once the WAL holds this many pages (32 MiB; SQLite's
  // default is 1,000). A checkpoint writes each page changed since the last one once, so the
  // pages every create touches (index roots and right edges, counts, versions) are written once
  // per 8,000 WAL pages rather than per 1,000, and the database is fsynced 8 times less often:
  // creates ran 10–20 % faster side by side, at the price of a longer pause per checkpoint (p99
  // 36–46 ms instead of 28–41 under 64 writers) and a WAL file that stays at that size.
  // (BENCHMARKS.md, "Round 9".)
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
