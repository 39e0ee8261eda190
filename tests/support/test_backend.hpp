// Which storage backend the black-box suites run against: SQLite by default, PostgreSQL when
// LEADLINE_TEST_BACKEND=postgres. ctest registers the API and CLI suites once per backend, so
// one test body proves the same behaviour on both.
#pragma once

#include <filesystem>
#include <ostream>
#include <string>

namespace leadline_test {

enum class Backend { kSqlite, kPostgres };

Backend test_backend();

// Names a backend in gtest output ("sqlite", "postgres").
void PrintTo(Backend backend, std::ostream* os);

// The --db URL of a fresh, empty database of the test backend; a SQLite file goes into `dir`.
std::string fresh_database_url(const std::filesystem::path& dir);

// Removes a database made by fresh_database_url; SQLite files go with their directory.
void drop_fresh_database(const std::string& db_url);

}  // namespace leadline_test
