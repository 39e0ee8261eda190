// Chooses the engine from a --db URL: the one place outside sqlite/ and postgres/ that knows
// them.
#include <filesystem>
#include <stdexcept>
#include <string_view>

#include "store/database.hpp"
#include "store/postgres/postgres_engine.hpp"
#include "store/sqlite/sqlite_engine.hpp"

namespace leadline::store {

namespace {

constexpr std::string_view kSqliteScheme = "sqlite:";
constexpr std::string_view kPostgresSchemes[] = {"postgres://", "postgresql://"};

std::unique_ptr<Engine> open_sqlite(const std::string& url, const std::string& path,
                                    const domain::Clock& clock) {
  if (path.empty() || path == ":memory:") {
    // Every connection of an in-memory database would see a database of its own.
    throw std::runtime_error("unsupported --db URL " + url + "; use sqlite:PATH with a file path");
  }
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(parent, ec);
    if (ec) {
      throw std::runtime_error("cannot create directory " + parent.string() + " for --db " + url +
                               ": " + ec.message());
    }
  }
  return std::make_unique<sqlite::SqliteEngine>(path, clock);
}

std::unique_ptr<Engine> open_engine(const std::string& db_url, const domain::Clock& clock,
                                    const OpenOptions& options) {
  if (db_url.starts_with(kSqliteScheme)) {
    return open_sqlite(db_url, db_url.substr(kSqliteScheme.size()), clock);
  }
  for (const std::string_view scheme : kPostgresSchemes) {
    // The whole URL goes to libpq, which reads user, password, host, port, database and
    // ?parameters such as sslmode from it.
    if (db_url.starts_with(scheme))
      return std::make_unique<postgres::PostgresEngine>(db_url, clock, options.postgres_pool_size);
  }
  throw std::runtime_error("unsupported --db URL " + db_url +
                           "; use sqlite:PATH or postgres://USER@HOST:PORT/DBNAME");
}

}  // namespace

std::unique_ptr<Database> open_database(const std::string& db_url, const domain::Clock& clock,
                                        OperationMetrics* metrics, const OpenOptions& options) {
  return std::make_unique<Database>(open_engine(db_url, clock, options), clock, metrics);
}

}  // namespace leadline::store
