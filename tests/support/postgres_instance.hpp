// PostgreSQL servers and fresh databases for tests: the private server of the ctest fixture
// (services.postgres.start), or one a test process starts for itself.
#pragma once

#include <filesystem>
#include <string>

namespace leadline_test {

// A server of its own in a temporary directory (tools/test-services/postgres.sh), stopped and
// removed on destruction. Throws std::runtime_error when it cannot start.
class PostgresServer {
 public:
  PostgresServer();
  ~PostgresServer();
  PostgresServer(const PostgresServer&) = delete;
  PostgresServer& operator=(const PostgresServer&) = delete;

  // postgres://postgres@127.0.0.1:PORT, without a database name.
  const std::string& url() const { return url_; }

  // Shuts the server down, keeping its data, and starts it again on the same port: for tests
  // of a database going away and coming back.
  void halt();
  void resume();

 private:
  std::filesystem::path dir_;
  std::string url_;
};

// The URL of a newly created, empty database on `server_url`.
std::string create_postgres_database(const std::string& server_url);

// Drops a database made by create_postgres_database (best effort: a test's teardown must not
// fail on it), so that a suite of hundreds of tests does not fill the disk.
void drop_postgres_database(const std::string& db_url);

// The URL of a new database on `server_url` that is already migrated: a copy of a template
// database the binary under test migrated once per server, several times cheaper than
// migrating each test's database (an empty one is create_postgres_database's).
std::string create_migrated_postgres_database(const std::string& server_url);

// A newly created, migrated database (create_migrated_postgres_database) on the shared test
// server: the one whose directory LEADLINE_TEST_PG_DIR names (its base URL is in DIR/url), or
// without that variable a PostgresServer started on first use and kept until the process exits.
std::string fresh_postgres_database();

// A newly created, empty database on the same shared server: for the store's own tests, which
// migrate it themselves and include upgrades of older schemas.
std::string fresh_empty_postgres_database();

}  // namespace leadline_test
