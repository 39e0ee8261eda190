// Runs tools/test-services/postgres.sh for private servers and creates databases through
// libpq on a server's "postgres" maintenance database.
#include "support/postgres_instance.hpp"

#include <libpq-fe.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <mutex>
#include <random>
#include <stdexcept>

namespace leadline_test {

namespace {

std::string read_url_file(const std::filesystem::path& dir) {
  std::ifstream in(dir / "url");
  std::string url;
  if (!std::getline(in, url) || url.empty()) {
    throw std::runtime_error("no PostgreSQL base URL in " + (dir / "url").string());
  }
  return url;
}

void run_script(const std::string& command, const std::filesystem::path& dir) {
  std::string line = "'";
  line += LEADLINE_PG_SCRIPT;
  line += "' " + command + " '" + dir.string() + "' >/dev/null";
  if (std::system(line.c_str()) != 0) {
    throw std::runtime_error("postgres.sh " + command + " " + dir.string() + " failed");
  }
}

std::string unique_database_name() {
  static std::atomic<int> counter{0};
  std::random_device rd;
  std::string name = "leadline_test_";
  name += std::to_string(getpid()) + "_" + std::to_string(++counter) + "_" +
          std::to_string(rd() % 1'000'000);
  return name;
}

using Connection = std::unique_ptr<PGconn, decltype(&PQfinish)>;

Connection connect_maintenance(const std::string& server_url) {
  Connection conn(PQconnectdb((server_url + "/postgres").c_str()), PQfinish);
  if (PQstatus(conn.get()) != CONNECTION_OK) {
    throw std::runtime_error("cannot connect to the test PostgreSQL at " + server_url + ": " +
                             PQerrorMessage(conn.get()));
  }
  return conn;
}

// Runs one command; returns its first value (empty when it returns no rows).
std::string execute(PGconn* conn, const std::string& sql) {
  PGresult* r = PQexec(conn, sql.c_str());
  const ExecStatusType status = PQresultStatus(r);
  const bool ok = status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
  const std::string error = PQresultErrorMessage(r);
  std::string value;
  if (ok && status == PGRES_TUPLES_OK && PQntuples(r) > 0) value = PQgetvalue(r, 0, 0);
  PQclear(r);
  if (!ok) throw std::runtime_error(sql + " failed: " + error);
  return value;
}

// A session-level advisory lock on `name`, held until the end of the scope, thrown out of or not.
class AdvisoryLock {
 public:
  AdvisoryLock(PGconn* conn, const std::string& name) : conn_(conn), name_(name) {
    execute(conn_, "SELECT pg_advisory_lock(hashtext('" + name_ + "'))");
  }
  ~AdvisoryLock() {
    PQclear(PQexec(conn_, ("SELECT pg_advisory_unlock(hashtext('" + name_ + "'))").c_str()));
  }
  AdvisoryLock(const AdvisoryLock&) = delete;
  AdvisoryLock& operator=(const AdvisoryLock&) = delete;

 private:
  PGconn* conn_;
  std::string name_;
};

// The name of a database on the server that the leadline binary under test has migrated, made
// on first use by whichever test process gets there first (an advisory lock orders the
// processes of a parallel ctest run). The name carries the binary's size and time, so a
// long-lived developer server never hands out a template migrated by an older build.
const std::string& migrated_template(PGconn* conn, const std::string& server_url) {
  static std::mutex mutex;
  static std::string known_server;
  static std::string name;
  std::lock_guard lock(mutex);
  if (known_server == server_url) return name;
  std::error_code ec;
  const auto binary = std::filesystem::path(LEADLINE_BINARY);
  const auto stamp = std::filesystem::last_write_time(binary, ec).time_since_epoch().count();
  const auto size = std::filesystem::file_size(binary, ec);
  std::string wanted = "leadline_template_" + std::to_string(size) + "_" +
                       std::to_string(static_cast<unsigned long long>(stamp) % 1'000'000'000'000);
  {
    const AdvisoryLock lock_across_processes(conn, wanted);
    if (execute(conn, "SELECT 1 FROM pg_database WHERE datname = '" + wanted + "'").empty()) {
      // Built under another name and renamed when whole, so a process that died half-way
      // leaves no half-migrated template behind for the next one to copy.
      const std::string building = wanted + "_" + std::to_string(getpid());
      execute(conn, "DROP DATABASE IF EXISTS " + building);
      execute(conn, "CREATE DATABASE " + building);
      const std::string command = "'" + binary.string() + "' workspaces list --db '" + server_url +
                                  "/" + building + "' >/dev/null";
      if (std::system(command.c_str()) != 0) {
        throw std::runtime_error("migrating the template database failed: " + command);
      }
      {
        // Each copy makes its own cursor secret when first opened, as a new database does.
        Connection built(PQconnectdb((server_url + "/" + building).c_str()), PQfinish);
        execute(built.get(), "DELETE FROM meta WHERE key = 'cursor_secret'");
      }
      execute(conn, "ALTER DATABASE " + building + " RENAME TO " + wanted);
    }
  }
  known_server = server_url;
  name = std::move(wanted);
  return name;
}

}  // namespace

PostgresServer::PostgresServer() {
  std::string pattern = (std::filesystem::temp_directory_path() / "leadline-pg-XXXXXX").string();
  if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  dir_ = pattern;
  run_script("start", dir_);
  url_ = read_url_file(dir_);
}

PostgresServer::~PostgresServer() {
  try {
    run_script("stop", dir_);
  } catch (const std::exception&) {
    // Nothing more to do at teardown; the temporary directory is all that is left.
  }
}

void PostgresServer::halt() {
  run_script("halt", dir_);
}

void PostgresServer::resume() {
  run_script("resume", dir_);
}

std::string create_postgres_database(const std::string& server_url) {
  const std::string name = unique_database_name();
  const auto conn = connect_maintenance(server_url);
  // The name is made of [a-z0-9_] only, so it needs no quoting.
  execute(conn.get(), "CREATE DATABASE " + name);
  return server_url + "/" + name;
}

std::string create_migrated_postgres_database(const std::string& server_url) {
  const std::string name = unique_database_name();
  const auto conn = connect_maintenance(server_url);
  const std::string& source = migrated_template(conn.get(), server_url);
  // FILE_COPY copies the template's files instead of writing every page through the WAL
  // (the default since PostgreSQL 15), which is what makes a copy cheaper than migrating.
  std::string sql = "CREATE DATABASE " + name + " TEMPLATE " + source;
  if (PQserverVersion(conn.get()) >= 150000) sql += " STRATEGY FILE_COPY";
  execute(conn.get(), sql);
  return server_url + "/" + name;
}

void drop_postgres_database(const std::string& db_url) {
  const std::size_t slash = db_url.rfind('/');
  const std::string server_url = db_url.substr(0, slash);
  const std::string name = db_url.substr(slash + 1);
  Connection conn(PQconnectdb((server_url + "/postgres").c_str()), PQfinish);
  if (PQstatus(conn.get()) != CONNECTION_OK) return;
  // FORCE ends sessions a killed test may have left behind.
  PQclear(PQexec(conn.get(), ("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)").c_str()));
}

namespace {

// The base URL of the shared test server.
std::string shared_server_url() {
  static std::mutex mutex;
  static std::unique_ptr<PostgresServer> own_server;
  const char* dir = std::getenv("LEADLINE_TEST_PG_DIR");
  if (dir && *dir) return read_url_file(dir);
  std::lock_guard lock(mutex);
  if (!own_server) own_server = std::make_unique<PostgresServer>();
  return own_server->url();
}

}  // namespace

std::string fresh_postgres_database() {
  return create_migrated_postgres_database(shared_server_url());
}

std::string fresh_empty_postgres_database() {
  return create_postgres_database(shared_server_url());
}

}  // namespace leadline_test
