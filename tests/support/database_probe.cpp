// SQLite through its library loaded at run time (the black-box suites do not link it) and
// PostgreSQL through libpq and pg_dump.

#include "support/database_probe.hpp"

#include <dlfcn.h>
#include <libpq-fe.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <stdexcept>

namespace leadline_test {

namespace {

constexpr std::string_view kSqliteScheme = "sqlite:";

bool is_sqlite(const std::string& db_url) {
  return db_url.starts_with(kSqliteScheme);
}

// The few SQLite entry points needed to change a schema under a running server.
class SqliteLibrary {
 public:
  SqliteLibrary() {
    for (const char* name : {"libsqlite3.so.0", "libsqlite3.so"}) {
      handle_ = ::dlopen(name, RTLD_NOW | RTLD_LOCAL);
      if (handle_) break;
    }
    if (!handle_) return;
    open_ = reinterpret_cast<OpenFn>(::dlsym(handle_, "sqlite3_open"));
    exec_ = reinterpret_cast<ExecFn>(::dlsym(handle_, "sqlite3_exec"));
    busy_ = reinterpret_cast<BusyFn>(::dlsym(handle_, "sqlite3_busy_timeout"));
    close_ = reinterpret_cast<CloseFn>(::dlsym(handle_, "sqlite3_close"));
  }
  ~SqliteLibrary() {
    if (handle_) ::dlclose(handle_);
  }
  SqliteLibrary(const SqliteLibrary&) = delete;
  SqliteLibrary& operator=(const SqliteLibrary&) = delete;

  // Runs `sql`; `last_value`, when given, receives the first column of the last row a
  // statement of it returned.
  bool exec(const std::filesystem::path& file, const std::string& sql,
            std::string* last_value = nullptr) {
    if (!(open_ && exec_ && busy_ && close_)) return false;
    void* db = nullptr;
    if (open_(file.c_str(), &db) != 0) {
      if (db) close_(db);
      return false;
    }
    busy_(db, 5000);
    const bool ok =
        exec_(db, sql.c_str(), last_value ? reinterpret_cast<void*>(&keep_first_column) : nullptr,
              last_value, nullptr) == 0;
    close_(db);
    return ok;
  }

 private:
  static int keep_first_column(void* out, int columns, char** values, char**) {
    *static_cast<std::string*>(out) = columns > 0 && values[0] ? values[0] : "NULL";
    return 0;
  }

  using OpenFn = int (*)(const char*, void**);
  using ExecFn = int (*)(void*, const char*, void*, void*, char**);
  using BusyFn = int (*)(void*, int);
  using CloseFn = int (*)(void*);
  void* handle_ = nullptr;
  OpenFn open_ = nullptr;
  ExecFn exec_ = nullptr;
  BusyFn busy_ = nullptr;
  CloseFn close_ = nullptr;
};

using PgResult = std::unique_ptr<PGresult, decltype(&PQclear)>;

// Runs `sql` on a connection of its own; an empty result when the connection failed.
PgResult run_postgres(const std::string& db_url, const std::string& sql, std::string& error) {
  std::unique_ptr<PGconn, decltype(&PQfinish)> conn(PQconnectdb(db_url.c_str()), &PQfinish);
  if (PQstatus(conn.get()) != CONNECTION_OK) {
    error = PQerrorMessage(conn.get());
    return PgResult(nullptr, &PQclear);
  }
  PgResult res(PQexec(conn.get(), sql.c_str()), &PQclear);
  const ExecStatusType status = PQresultStatus(res.get());
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    error = PQresultErrorMessage(res.get());
    return PgResult(nullptr, &PQclear);
  }
  return res;
}

bool exec_postgres(const std::string& db_url, const std::string& sql) {
  std::string error;
  return run_postgres(db_url, sql, error) != nullptr;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// pg_dump of the server's own major version: Debian installs it under /usr/lib/postgresql/N.
std::filesystem::path pg_dump_binary() {
  std::filesystem::path found;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/usr/lib/postgresql", ec)) {
    std::filesystem::path candidate = entry.path() / "bin" / "pg_dump";
    if (std::filesystem::exists(candidate) && (found.empty() || candidate > found))
      found = candidate;
  }
  if (found.empty()) throw std::runtime_error("pg_dump not found under /usr/lib/postgresql");
  return found;
}

}  // namespace

bool exec_sql(const std::string& db_url, const std::string& sql) {
  if (is_sqlite(db_url)) {
    SqliteLibrary sqlite;
    return sqlite.exec(db_url.substr(kSqliteScheme.size()), sql);
  }
  return exec_postgres(db_url, sql);
}

std::string sqlite_scalar(const std::string& db_url, const std::string& sql) {
  if (!is_sqlite(db_url)) return "error: not a SQLite database";
  SqliteLibrary sqlite;
  std::string value = "error: no rows";
  if (!sqlite.exec(db_url.substr(kSqliteScheme.size()), sql, &value)) return "error: " + sql;
  return value;
}

std::string postgres_scalar(const std::string& db_url, const std::string& sql) {
  std::string error;
  PgResult res = run_postgres(db_url, sql, error);
  if (!res) return "error: " + error;
  if (PQntuples(res.get()) < 1 || PQnfields(res.get()) < 1) return "error: no rows";
  return PQgetvalue(res.get(), 0, 0);
}

std::vector<StoredBytes> stored_bytes(const std::string& db_url) {
  std::vector<StoredBytes> out;
  if (is_sqlite(db_url)) {
    const std::filesystem::path db = db_url.substr(kSqliteScheme.size());
    for (const auto& entry : std::filesystem::directory_iterator(db.parent_path())) {
      if (entry.is_regular_file() && entry.path().string().starts_with(db.string())) {
        out.push_back({entry.path().string(), read_file(entry.path())});
      }
    }
    return out;
  }
  // Test URLs hold no quote, so single quotes make the shell pass the URL as one word.
  const std::string command = pg_dump_binary().string() + " --dbname '" + db_url + "'";
  std::unique_ptr<FILE, decltype(&::pclose)> pipe(::popen(command.c_str(), "r"), &::pclose);
  if (!pipe) throw std::runtime_error("cannot run " + command);
  std::string dump;
  char buf[8192];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe.get())) > 0;) dump.append(buf, n);
  const int status = ::pclose(pipe.release());
  if (status != 0)
    throw std::runtime_error(command + " failed with status " + std::to_string(status));
  out.push_back({"pg_dump", std::move(dump)});
  return out;
}

}  // namespace leadline_test
