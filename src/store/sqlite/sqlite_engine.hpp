// The SQLite engine: one file, which several processes may open at once. One writer connection
// whose transactions concurrent writes share (group commit: a burst costs one fsync), and pooled
// read connections that never queue behind the writer (WAL lets them run alongside it).
#pragma once

#include <memory>
#include <string>

#include "domain/clock.hpp"
#include "store/engine.hpp"
#include "store/sqlite/group_commit.hpp"
#include "store/sqlite/reader_pool.hpp"
#include "store/sqlite/search_queue.hpp"
#include "store/sqlite/sqlite_connection.hpp"

namespace leadline::store::sqlite {

class SqliteEngine final : public Engine {
 public:
  // Opens or creates the file and applies migrations. Throws std::runtime_error when it cannot.
  SqliteEngine(const std::string& path, const domain::Clock& clock);

  void run(Access access, Work work) override;
  bool ping() override;  // in sqlite_ping.cpp
  // A write waits only for its group commit, which suspends a calling fiber (group_commit.hpp).
  bool writes_suspend() const override { return true; }

 private:
  std::unique_ptr<Connection> writer_;
  // Every write transaction applies the search queues (migration 0015) before it commits.
  GroupCommit group_{*writer_, apply_search_queues};
  ReaderPool readers_;
};

}  // namespace leadline::store::sqlite
