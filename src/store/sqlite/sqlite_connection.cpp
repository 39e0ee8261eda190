// Connection, statement cache and transaction guard over the SQLite C API.
#include "store/sqlite/sqlite_connection.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <thread>
#include <utility>

namespace leadline::store::sqlite {

namespace {

// Long enough for another process's write transaction (an import) to finish; the busy
// handler retries within it instead of failing at once.
constexpr int kBusyTimeoutMs = 5000;

[[noreturn]] void fail(sqlite3* db, int rc, std::string_view doing) {
  std::string what(doing);
  what += ": ";
  what += db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  throw SqliteError(what, db ? sqlite3_extended_errcode(db) : rc);
}

}  // namespace

bool SqliteError::is_unique_violation() const {
  return code_ == SQLITE_CONSTRAINT_UNIQUE;
}

struct CachedStatement {
  sqlite3_stmt* stmt = nullptr;
  bool in_use = false;
  ~CachedStatement() { sqlite3_finalize(stmt); }
};

Query::Query(CachedStatement& statement) : statement_(statement) {
  statement_.in_use = true;
}

Query::~Query() {
  sqlite3_reset(statement_.stmt);
  sqlite3_clear_bindings(statement_.stmt);
  statement_.in_use = false;
}

namespace {
void check_bind(sqlite3_stmt* stmt, int rc) {
  if (rc != SQLITE_OK) fail(sqlite3_db_handle(stmt), rc, "binding a parameter");
}
}  // namespace

Query& Query::bind_int(std::int64_t v) {
  check_bind(statement_.stmt, sqlite3_bind_int64(statement_.stmt, next_param_++, v));
  return *this;
}

Query& Query::bind_real(double v) {
  check_bind(statement_.stmt, sqlite3_bind_double(statement_.stmt, next_param_++, v));
  return *this;
}

Query& Query::bind_text(std::string_view v) {
  // SQLITE_TRANSIENT: the caller's buffer may die before the statement runs.
  check_bind(statement_.stmt, sqlite3_bind_text64(statement_.stmt, next_param_++, v.data(),
                                                  v.size(), SQLITE_TRANSIENT, SQLITE_UTF8));
  return *this;
}

Query& Query::bind_null() {
  check_bind(statement_.stmt, sqlite3_bind_null(statement_.stmt, next_param_++));
  return *this;
}

Query& Query::bind_opt_text(const std::optional<std::string>& v) {
  return v ? bind_text(*v) : bind_null();
}

Query& Query::bind_opt_real(const std::optional<double>& v) {
  return v ? bind_real(*v) : bind_null();
}

Query& Query::bind_value(const SqlValue& v) {
  if (const auto* i = std::get_if<std::int64_t>(&v)) return bind_int(*i);
  if (const auto* d = std::get_if<double>(&v)) return bind_real(*d);
  if (const auto* s = std::get_if<std::string>(&v)) return bind_text(*s);
  return bind_null();
}

bool Query::step() {
  const int rc = sqlite3_step(statement_.stmt);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  fail(sqlite3_db_handle(statement_.stmt), rc, "running a statement");
}

void Query::run() {
  while (step()) {
  }
}

int Query::column_count() const {
  return sqlite3_column_count(statement_.stmt);
}

bool Query::is_null(int col) const {
  return sqlite3_column_type(statement_.stmt, col) == SQLITE_NULL;
}

std::int64_t Query::int64(int col) const {
  return sqlite3_column_int64(statement_.stmt, col);
}

double Query::real(int col) const {
  return sqlite3_column_double(statement_.stmt, col);
}

std::string Query::text(int col) const {
  const auto* p = sqlite3_column_text(statement_.stmt, col);
  const int n = sqlite3_column_bytes(statement_.stmt, col);
  return p ? std::string(reinterpret_cast<const char*>(p), static_cast<std::size_t>(n))
           : std::string();
}

std::optional<std::string> Query::opt_text(int col) const {
  if (is_null(col)) return std::nullopt;
  return text(col);
}

std::optional<double> Query::opt_real(int col) const {
  if (is_null(col)) return std::nullopt;
  return real(col);
}

std::optional<std::int64_t> Query::opt_int64(int col) const {
  if (is_null(col)) return std::nullopt;
  return int64(col);
}

SqlValue Query::value(int col) const {
  switch (sqlite3_column_type(statement_.stmt, col)) {
    case SQLITE_INTEGER:
      return int64(col);
    case SQLITE_FLOAT:
      return real(col);
    case SQLITE_NULL:
      return std::monostate{};
    default:
      return text(col);
  }
}

namespace {

// SQLite's allocation statistics take a process-wide mutex on every allocation, which every
// reader thread would contend for; nothing here reads them. This must precede SQLite's
// initialisation, so it is done once before the first connection opens.
void configure_sqlite_once() {
  static std::once_flag once;
  std::call_once(once, [] { sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); });
}

// Switching a fresh database to WAL takes an exclusive lock, and when several connections open
// the same new file at once SQLite answers SQLITE_BUSY without calling the busy handler (it
// skips waiting where waiting could deadlock). Opening one new file together is normal — two
// `serve`s, or a command beside a server — so the switch is retried within the busy timeout.
void switch_to_wal(sqlite3* db) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(kBusyTimeoutMs);
  for (auto pause = std::chrono::milliseconds(1);;
       pause = std::min(pause * 2, std::chrono::milliseconds(50))) {
    const int rc = sqlite3_exec(db, "PRAGMA journal_mode = WAL", nullptr, nullptr, nullptr);
    if (rc == SQLITE_OK) return;
    if ((rc & 0xff) != SQLITE_BUSY || std::chrono::steady_clock::now() + pause > deadline) {
      fail(db, rc, "executing \"PRAGMA journal_mode = WAL\"");
    }
    std::this_thread::sleep_for(pause);
  }
}

}  // namespace

Connection::Connection(const std::string& path) {
  configure_sqlite_once();
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
  const int rc = sqlite3_open_v2(path.c_str(), &db_, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string what = "cannot open database " + path + ": ";
    what += db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close(db_);
    db_ = nullptr;
    throw SqliteError(what, rc);
  }
  sqlite3_extended_result_codes(db_, 1);
  sqlite3_busy_timeout(db_, kBusyTimeoutMs);
  try {
    switch_to_wal(db_);
    exec("PRAGMA synchronous = FULL");
    exec("PRAGMA foreign_keys = ON");
    // 16 MiB of pages per connection (the default is 2 MiB): a list page touches its index,
    // its rows and, with a search, the trigram index; with too small a cache each of those
    // pages is read again from the OS with a syscall on every request. Pages are allocated as
    // they are used, so an idle server stays small.
    exec("PRAGMA cache_size = -16384");
  } catch (...) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw;
  }
}

Connection::~Connection() {
  // Statements must be finalized before the connection closes.
  cache_.clear();
  sqlite3_close(db_);
}

void Connection::exec(const std::string& sql) {
  char* message = nullptr;
  const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message);
  if (rc != SQLITE_OK) {
    std::string what = message ? message : sqlite3_errstr(rc);
    sqlite3_free(message);
    throw SqliteError("executing \"" + sql.substr(0, 60) + "\": " + what,
                      sqlite3_extended_errcode(db_));
  }
}

Query Connection::query(const std::string& sql) {
  auto& statements = cache_[sql];
  for (auto& s : statements) {
    if (!s->in_use) return Query(*s);
  }
  auto fresh = std::make_unique<CachedStatement>();
  const int rc = sqlite3_prepare_v3(db_, sql.c_str(), static_cast<int>(sql.size() + 1),
                                    SQLITE_PREPARE_PERSISTENT, &fresh->stmt, nullptr);
  if (rc != SQLITE_OK) fail(db_, rc, "preparing \"" + sql.substr(0, 80) + "\"");
  statements.push_back(std::move(fresh));
  return Query(*statements.back());
}

int Connection::changes() const {
  return sqlite3_changes(db_);
}

bool Connection::in_transaction() const {
  return sqlite3_get_autocommit(db_) == 0;
}

Transaction::Transaction(Connection& conn, Kind kind) : conn_(conn) {
  conn_.exec(kind == Kind::kWrite ? "BEGIN IMMEDIATE" : "BEGIN");
}

Transaction::~Transaction() {
  if (!open_ || !conn_.in_transaction()) return;
  try {
    conn_.exec("ROLLBACK");
  } catch (const SqliteError&) {
    // A failed rollback leaves nothing to undo that SQLite has not already undone.
  }
}

void Transaction::commit() {
  conn_.exec("COMMIT");
  open_ = false;
}

}  // namespace leadline::store::sqlite
