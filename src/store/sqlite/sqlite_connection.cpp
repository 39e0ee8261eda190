// Connection, statement cache and transaction guard over the SQLite C API.
#include "store/sqlite/sqlite_connection.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <thread>
#include <utility>

#include "store/sqlite/bound_rows.hpp"
#include "store/sqlite/sqlite_dialect.hpp"
#include "store/sqlite/wal_write_buffer.hpp"

namespace leadline::store::sqlite {

namespace {

// Long enough for another process's write transaction (an import) to finish; the busy
// handler retries within it instead of failing at once.
constexpr int kBusyTimeoutMs = 5000;

// "INSERT INTO table (columns) SELECT c0, ... FROM bound_rows(?)": the rows of a bulk insert
// read where they are held, so any number of them is one statement. Within a transaction every
// statement starts by copying each existing page it is about to change to the statement
// journal, and FTS5 writes what it collected as a new index segment, so one statement per batch
// rather than one per row (or per a few hundred, as placeholders would allow) saves rewriting
// the same index pages again and again.
std::string rows_insert(std::string_view table, std::string_view columns, std::size_t width) {
  std::string sql = "INSERT INTO ";
  sql.append(table).append(" (").append(columns).append(") ");
  return sql.append(select_bound_rows(width));
}

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

// A prepared statement and, while a Rows reads it, the cursor over its result.
struct Connection::Statement final : sql::RowCursor {
  sqlite3_stmt* stmt = nullptr;
  bool in_use = false;

  Statement() = default;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement() { sqlite3_finalize(stmt); }

  bool next() override {
    const int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    fail(sqlite3_db_handle(stmt), rc, "running a statement");
  }
  int columns() const override { return sqlite3_column_count(stmt); }
  bool is_null(int col) const override { return sqlite3_column_type(stmt, col) == SQLITE_NULL; }
  std::int64_t int64(int col) const override { return sqlite3_column_int64(stmt, col); }
  double real(int col) const override { return sqlite3_column_double(stmt, col); }
  std::string_view text(int col) const override {
    const auto* p = sqlite3_column_text(stmt, col);
    const int n = sqlite3_column_bytes(stmt, col);
    if (p == nullptr) return {};
    return {reinterpret_cast<const char*>(p), static_cast<std::size_t>(n)};
  }
  sql::Value value(int col) const override {
    switch (sqlite3_column_type(stmt, col)) {
      case SQLITE_INTEGER:
        return int64(col);
      case SQLITE_FLOAT:
        return real(col);
      case SQLITE_NULL:
        return std::monostate{};
      default:
        return std::string(text(col));
    }
  }
  void release() override {
    sqlite3_reset(stmt);
    sqlite3_clear_bindings(stmt);
    in_use = false;
  }

  void bind(int index, const sql::Value& v) {
    int rc = SQLITE_OK;
    if (const auto* i = std::get_if<std::int64_t>(&v)) {
      rc = sqlite3_bind_int64(stmt, index, *i);
    } else if (const auto* d = std::get_if<double>(&v)) {
      rc = sqlite3_bind_double(stmt, index, *d);
    } else if (const auto* t = std::get_if<std::string>(&v)) {
      // SQLITE_TRANSIENT: the parameters may die before the rows are read.
      rc = sqlite3_bind_text64(stmt, index, t->data(), t->size(), SQLITE_TRANSIENT, SQLITE_UTF8);
    } else {
      rc = sqlite3_bind_null(stmt, index);
    }
    if (rc != SQLITE_OK) fail(sqlite3_db_handle(stmt), rc, "binding a parameter");
  }
};

namespace {

// SQLite's allocation statistics take a process-wide mutex on every allocation, which every
// reader thread would contend for; nothing here reads them. This must precede SQLite's
// initialisation, so it is done once before the first connection opens. (A larger in-memory
// statement journal, SQLITE_CONFIG_STMTJRNL_SPILL, saved a temporary file per write but made
// SQLite 3.40 fail large savepoints, an import's, with "database or disk is full": not used.)
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

Connection::Connection(const std::string& path, Open open) {
  configure_sqlite_once();
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX |
                    (open == Open::kCreating ? SQLITE_OPEN_CREATE : 0);
  const int rc = sqlite3_open_v2(path.c_str(), &db_, flags, wal_write_buffer_vfs());
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
    register_bound_rows(db_);
    switch_to_wal(db_);
    execute_script("PRAGMA synchronous = FULL");
    execute_script("PRAGMA foreign_keys = ON");
    // 16 MiB of pages per connection (the default is 2 MiB): a list page touches its index,
    // its rows and, with a search, the trigram index; with too small a cache each of those
    // pages is read again from the OS with a syscall on every request. Pages are allocated as
    // they are used, so an idle server stays small.
    execute_script("PRAGMA cache_size = -" + std::to_string(kCacheKiB));
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

void Connection::execute_script(const std::string& sql) {
  char* message = nullptr;
  const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message);
  if (rc != SQLITE_OK) {
    std::string what = message ? message : sqlite3_errstr(rc);
    sqlite3_free(message);
    throw SqliteError("executing \"" + sql.substr(0, 60) + "\": " + what,
                      sqlite3_extended_errcode(db_));
  }
}

Connection::Statement& Connection::prepare(std::string_view sql, const sql::Params& params) {
  auto found = cache_.find(sql);
  if (found == cache_.end()) found = cache_.try_emplace(std::string(sql)).first;
  Statement* statement = nullptr;
  for (auto& s : found->second) {
    if (!s->in_use) {
      statement = s.get();
      break;
    }
  }
  if (statement == nullptr) {
    auto fresh = std::make_unique<Statement>();
    const int rc = sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()),
                                      SQLITE_PREPARE_PERSISTENT, &fresh->stmt, nullptr);
    if (rc != SQLITE_OK) fail(db_, rc, "preparing \"" + std::string(sql.substr(0, 80)) + "\"");
    found->second.push_back(std::move(fresh));
    statement = found->second.back().get();
  }
  statement->in_use = true;
  try {
    int index = 1;
    for (const sql::Value& v : params.values()) statement->bind(index++, v);
  } catch (...) {
    statement->release();
    throw;
  }
  return *statement;
}

sql::Rows Connection::query(std::string_view sql, const sql::Params& params) {
  return sql::Rows(prepare(sql, params));
}

std::int64_t Connection::execute(std::string_view sql, const sql::Params& params) {
  sql::Rows rows(prepare(sql, params));
  while (rows.next()) {
  }
  return sqlite3_changes64(db_);
}

std::optional<std::int64_t> Connection::execute_unless_duplicate(std::string_view sql,
                                                                 const sql::Params& params) {
  // A constraint failure undoes the statement alone (ON CONFLICT ABORT, SQLite's default); the
  // transaction around it stays usable.
  try {
    return execute(sql, params);
  } catch (const SqliteError& e) {
    if (!e.is_unique_violation()) throw;
    return std::nullopt;
  }
}

void Connection::insert_rows(std::string_view table, std::string_view columns,
                             const std::vector<sql::Params>& rows) {
  if (rows.empty()) return;
  Statement& statement = prepare(rows_insert(table, columns, rows.front().values().size()), {});
  const sql::Rows stepped(statement);
  const int rc = sqlite3_bind_pointer(
      statement.stmt, 1, const_cast<std::vector<sql::Params>*>(&rows), kBoundRowsPointer, nullptr);
  if (rc != SQLITE_OK) fail(db_, rc, "binding a parameter");
  while (statement.next()) {
  }
}

const sql::Dialect& Connection::dialect() const {
  return sqlite_dialect();
}

bool Connection::in_transaction() const {
  return sqlite3_get_autocommit(db_) == 0;
}

std::int64_t Connection::total_changes() const {
  return sqlite3_total_changes64(db_);
}

// BEGIN and COMMIT run as cached statements: every read request opens a transaction, and
// sqlite3_exec would parse the text again each time.
Transaction::Transaction(Connection& conn, Kind kind) : conn_(conn) {
  conn_.execute(kind == Kind::kWrite ? "BEGIN IMMEDIATE" : "BEGIN");
}

Transaction::~Transaction() {
  if (!open_ || !conn_.in_transaction()) return;
  try {
    conn_.execute_script("ROLLBACK");
  } catch (const SqliteError&) {
    // A failed rollback leaves nothing to undo that SQLite has not already undone.
  }
}

void Transaction::commit() {
  conn_.execute("COMMIT");
  open_ = false;
}

}  // namespace leadline::store::sqlite
