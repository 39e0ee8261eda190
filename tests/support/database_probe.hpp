// Direct access to a test database behind the server's back, on either backend: run a statement
// (to damage a schema on purpose), or read every byte the database keeps (to search it).
#pragma once

#include <string>
#include <vector>

namespace leadline_test {

// Runs `sql` on the database of a --db URL; true on success.
bool exec_sql(const std::string& db_url, const std::string& sql);

// The first column of the last row that `sql` (one or more statements) returns on a SQLite
// database; an error message prefixed with "error: " when it fails.
std::string sqlite_scalar(const std::string& db_url, const std::string& sql);

// The first column of the first row of a query on a PostgreSQL database, as text; an error
// message prefixed with "error: " when the query fails.
std::string postgres_scalar(const std::string& db_url, const std::string& sql);

struct StoredBytes {
  std::string origin;  // a file path, or "pg_dump" for PostgreSQL
  std::string bytes;
};

// Everything the database holds: for SQLite the database file and its -wal/-shm files as they
// are on disk; for PostgreSQL a full pg_dump of the database. Throws when it cannot read them.
std::vector<StoredBytes> stored_bytes(const std::string& db_url);

}  // namespace leadline_test
