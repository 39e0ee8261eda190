// Connection discipline of the SQLite engine: which connection and transaction each access gets.
#include "store/sqlite/sqlite_engine.hpp"

#include <algorithm>
#include <thread>

#include "store/schema/migration_runner.hpp"
#include "store/sqlite/sqlite_migrations.hpp"

namespace leadline::store::sqlite {

namespace {

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
