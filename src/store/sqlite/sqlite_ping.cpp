// SqliteEngine::ping: a fresh read-only connection that must find the file and read its schema,
// so a file that was removed or replaced by something unreadable shows, which the pooled
// connections (holding the old file open) would not.
#include <sqlite3.h>

#include "store/sqlite/sqlite_engine.hpp"

namespace leadline::store::sqlite {

namespace {

constexpr int kPingBusyTimeoutMs = 1000;

}  // namespace

bool SqliteEngine::ping() {
  sqlite3* db = nullptr;
  // No SQLITE_OPEN_CREATE: a missing file must fail, not be recreated empty.
  if (sqlite3_open_v2(readers_.path().c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    sqlite3_close(db);
    return false;
  }
  sqlite3_busy_timeout(db, kPingBusyTimeoutMs);
  sqlite3_stmt* statement = nullptr;
  bool answered = sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master", -1, &statement,
                                     nullptr) == SQLITE_OK &&
                  sqlite3_step(statement) == SQLITE_ROW;
  sqlite3_finalize(statement);
  sqlite3_close(db);
  return answered;
}

}  // namespace leadline::store::sqlite
