// Shared set-up for the store unit tests, which run on every backend: a fresh database (an
// SQLite file in its own temporary directory, or a new PostgreSQL database on the test
// server), two workspaces, and builders for the records the tests create.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "domain/records.hpp"
#include "domain/timestamp.hpp"
#include "manual_clock.hpp"
#include "store/database.hpp"
#include "store/postgres/pg_connection.hpp"
#include "store/postgres/postgres_migrations.hpp"
#include "store/schema/migration_runner.hpp"
#include "store/sqlite/sqlite_connection.hpp"
#include "store/sqlite/sqlite_migrations.hpp"
#include "support/postgres_instance.hpp"
#include "temp_dir.hpp"

namespace leadline::store::testing {

using domain::ApiKeyRecord;
using domain::NewApiKey;
using domain::UsageDelta;
using domain::UsageReport;
using leadline::unit_test::ManualClock;
using leadline::unit_test::TempDir;

inline domain::Timestamp ts(const char* iso) {
  const auto t = domain::parse_iso8601(iso);
  if (!t) throw std::invalid_argument(std::string("bad timestamp in test: ") + iso);
  return *t;
}

inline domain::NewLead lead_named(std::string name) {
  domain::NewLead l;
  l.visitor_name = std::move(name);
  return l;
}

inline domain::NewContact contact_named(std::string first,
                                        std::optional<std::string> email = std::nullopt) {
  domain::NewContact c;
  c.first_name = std::move(first);
  c.email = std::move(email);
  return c;
}

inline domain::Person person(std::string first, std::string last, std::string email) {
  domain::Person p;
  p.first_name = std::move(first);
  p.last_name = std::move(last);
  p.email = std::move(email);
  return p;
}

// A key of `ws` whose hash is 64 times `hash_fill` (distinct per key of a test).
inline NewApiKey new_key(const domain::WorkspaceId& ws, std::string name, char hash_fill) {
  return {ws, std::move(name),      "fc_live_Ab12", std::string(64, hash_fill),
          1,  {"10.0.0.0/8", "::1"}};
}

enum class Backend { kSqlite, kPostgres };

inline auto all_backends() {
  return ::testing::Values(Backend::kSqlite, Backend::kPostgres);
}

inline const char* to_string(Backend backend) {
  return backend == Backend::kSqlite ? "sqlite" : "postgres";
}

// gtest prints parameters in test listings (and so in ctest names) with this.
inline void PrintTo(Backend backend, std::ostream* out) {
  *out << to_string(backend);
}

// "sqlite" / "postgres": the last part of each test's name.
inline std::string backend_name(const ::testing::TestParamInfo<Backend>& info) {
  return to_string(info.param);
}

// Instantiated for all_backends() once per fixture (store_backends_test.cpp for this one).
class StoreTest : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    if (backend() == Backend::kPostgres)
      postgres_url_ = leadline_test::fresh_empty_postgres_database();
    store_ = open_database(url(), clock_);
    ws_ = store_->workspaces().create("Workspace A").id;
    other_ws_ = store_->workspaces().create("Workspace B").id;
  }

  Backend backend() const { return GetParam(); }

  // For SQLite a nested, not yet existing directory: open_store must create it.
  std::string url() const {
    if (backend() == Backend::kPostgres) return postgres_url_;
    return "sqlite:" + (dir_.path() / "data" / "leadline.db").string();
  }

  // Another fresh, empty database of the same backend.
  std::string other_database_url() {
    if (backend() == Backend::kPostgres) return leadline_test::fresh_empty_postgres_database();
    other_dirs_.push_back(std::make_unique<TempDir>());
    return "sqlite:" + (other_dirs_.back()->path() / "other.db").string();
  }

  // A connection to `url` (from other_database_url()) holding the schema as an older build left
  // it: only this backend's migrations before `sqlite_version` or `postgres_version` applied.
  std::unique_ptr<sql::Connection> migrated_before(const std::string& url, int sqlite_version,
                                                   int postgres_version) {
    std::unique_ptr<sql::Connection> old;
    std::vector<Migration> before;
    if (backend() == Backend::kSqlite) {
      old = std::make_unique<sqlite::Connection>(url.substr(7));
      for (const auto& m : sqlite::migrations()) {
        if (m.version < sqlite_version) before.push_back(m);
      }
    } else {
      old = std::make_unique<postgres::Connection>(url);
      for (const auto& m : postgres::migrations()) {
        if (m.version < postgres_version) before.push_back(m);
      }
    }
    apply_migrations(*old, before, domain::now());
    return old;
  }

  // The usage report as of `now`.
  std::variant<UsageReport, NotFound> usage_at(const domain::ApiKeyId& id, domain::Timestamp now) {
    clock_.set(now);
    return store_->usage().report(id);
  }

  // Imports one item and expects success.
  ImportCounts import_ok(const std::vector<ImportItem>& items) {
    auto result = store_->imports().apply(ws_, items);
    if (auto* failure = std::get_if<ImportFailure>(&result)) {
      ADD_FAILURE() << "import failed at line " << failure->line << ": " << failure->message;
      return {};
    }
    return std::get<ImportCounts>(result);
  }

  ManualClock clock_;
  TempDir dir_;
  std::vector<std::unique_ptr<TempDir>> other_dirs_;
  std::string postgres_url_;
  std::unique_ptr<Database> store_;
  domain::WorkspaceId ws_;
  domain::WorkspaceId other_ws_;
};

}  // namespace leadline::store::testing
