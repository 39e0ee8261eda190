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
  std::unique_ptr<PGconn, decltype(&PQfinish)> conn(PQconnectdb((server_url + "/postgres").c_str()),
                                                    PQfinish);
  if (PQstatus(conn.get()) != CONNECTION_OK) {
    throw std::runtime_error("cannot connect to the test PostgreSQL at " + server_url + ": " +
                             PQerrorMessage(conn.get()));
  }
  // The name is made of [a-z0-9_] only, so it needs no quoting.
  PGresult* r = PQexec(conn.get(), ("CREATE DATABASE " + name).c_str());
  const bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
  const std::string error = PQresultErrorMessage(r);
  PQclear(r);
  if (!ok) throw std::runtime_error("CREATE DATABASE " + name + " failed: " + error);
  return server_url + "/" + name;
}

void drop_postgres_database(const std::string& db_url) {
  const std::size_t slash = db_url.rfind('/');
  const std::string server_url = db_url.substr(0, slash);
  const std::string name = db_url.substr(slash + 1);
  std::unique_ptr<PGconn, decltype(&PQfinish)> conn(PQconnectdb((server_url + "/postgres").c_str()),
                                                    PQfinish);
  if (PQstatus(conn.get()) != CONNECTION_OK) return;
  // FORCE ends sessions a killed test may have left behind.
  PQclear(PQexec(conn.get(), ("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)").c_str()));
}

std::string fresh_postgres_database() {
  static std::mutex mutex;
  static std::unique_ptr<PostgresServer> own_server;
  const char* dir = std::getenv("LEADLINE_TEST_PG_DIR");
  if (dir && *dir) return create_postgres_database(read_url_file(dir));
  std::string url;
  {
    std::lock_guard lock(mutex);
    if (!own_server) own_server = std::make_unique<PostgresServer>();
    url = own_server->url();
  }
  return create_postgres_database(url);
}

}  // namespace leadline_test
