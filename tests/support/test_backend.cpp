// Backend choice from LEADLINE_TEST_BACKEND; PostgreSQL databases come from the test server.

#include "support/test_backend.hpp"

#include <cstdlib>
#include <stdexcept>
#include <string_view>

#include "support/postgres_instance.hpp"

namespace leadline_test {

Backend test_backend() {
  static const Backend backend = [] {
    const char* v = std::getenv("LEADLINE_TEST_BACKEND");
    const std::string_view name = v == nullptr ? "" : v;
    if (name.empty() || name == "sqlite") return Backend::kSqlite;
    if (name == "postgres") return Backend::kPostgres;
    throw std::runtime_error("LEADLINE_TEST_BACKEND must be sqlite or postgres, not " +
                             std::string(name));
  }();
  return backend;
}

void PrintTo(Backend backend, std::ostream* os) {
  *os << (backend == Backend::kPostgres ? "postgres" : "sqlite");
}

std::string fresh_database_url(const std::filesystem::path& dir) {
  if (test_backend() == Backend::kPostgres) return fresh_postgres_database();
  return "sqlite:" + (dir / "leadline.db").string();
}

void drop_fresh_database(const std::string& db_url) {
  if (db_url.starts_with("postgres")) drop_postgres_database(db_url);
}

}  // namespace leadline_test
