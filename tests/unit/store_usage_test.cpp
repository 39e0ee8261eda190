// Usage per key and UTC hour: the report's windows and the day rows an older database held. On
// both backends.
#include <algorithm>

#include "domain/usage.hpp"
#include "store/postgres/pg_connection.hpp"
#include "store/postgres/postgres_migrations.hpp"
#include "store/schema/migration_runner.hpp"
#include "store/sqlite/sqlite_connection.hpp"
#include "store/sqlite/sqlite_migrations.hpp"
#include "store_test_fixture.hpp"

namespace leadline::store::testing {
namespace {

// One flush's counts of `key` at `iso`: that hour's row, with `iso` as its latest request.
UsageDelta at(const domain::ApiKeyId& key, const char* iso, std::string endpoint,
              std::int64_t requests, std::int64_t errors, std::int64_t rate_limited) {
  const domain::Timestamp t = ts(iso);
  return {key, domain::utc_hour(t), std::move(endpoint), requests, errors, rate_limited, t};
}

class UsageStoreTest : public StoreTest {
 protected:
  domain::ApiKeyId key(const domain::WorkspaceId& ws, char hash_fill) {
    return store_->keys().create(new_key(ws, std::string(1, hash_fill), hash_fill)).id;
  }

  UsageReport report_at(const domain::ApiKeyId& k, domain::Timestamp now) {
    auto result = usage_at(k, now);
    if (!std::holds_alternative<UsageReport>(result)) {
      ADD_FAILURE() << "report: not found";
      return {};
    }
    return std::get<UsageReport>(result);
  }
};

INSTANTIATE_TEST_SUITE_P(Backends, UsageStoreTest, all_backends(), backend_name);

TEST_P(UsageStoreTest, ReportWindows) {
  const auto k = key(ws_, 'a');
  // 2026-12-01 is a Tuesday: its ISO week runs from Monday 30 November to Sunday 6 December.
  const auto now = ts("2026-12-01T12:00:00.000Z");
  store_->usage().record({
      at(k, "2026-11-29T23:59:59.999Z", "GET /leads", 100, 100, 100),  // nowhere
      at(k, "2026-11-30T00:00:00.000Z", "GET /leads", 10, 10, 0),      // week only
      at(k, "2026-12-01T00:00:00.000Z", "GET /leads", 5, 1, 1),
      at(k, "2026-12-01T23:59:59.999Z", "POST /leads", 3, 0, 0),     // today, a later hour
      at(k, "2026-12-06T23:00:00.000Z", "GET /leads", 2, 0, 0),      // week and month
      at(k, "2026-12-20T00:00:00.000Z", "GET /contacts", 4, 2, 0),   // month only
      at(k, "2027-01-01T00:00:00.000Z", "GET /contacts", 50, 0, 0),  // nowhere
  });
  auto report = report_at(k, now);
  EXPECT_EQ(report.today, 8);
  EXPECT_EQ(report.this_week, 20);
  EXPECT_EQ(report.this_month, 14);
  EXPECT_EQ(report.by_endpoint, (std::map<std::string, std::int64_t>{
                                    {"GET /leads", 7}, {"POST /leads", 3}, {"GET /contacts", 4}}));
  EXPECT_DOUBLE_EQ(report.error_rate, 3.0 / 14.0);
  EXPECT_EQ(report.rate_limited, 1);

  // Flushes add to the same rows; another hour of the day is another row of the same day.
  store_->usage().record({at(k, "2026-12-01T00:30:00.000Z", "GET /leads", 5, 1, 1),
                          at(k, "2026-12-01T08:00:00.000Z", "GET /leads", 1, 0, 0)});
  report = report_at(k, now);
  EXPECT_EQ(report.today, 14);
  EXPECT_EQ(report.by_endpoint.at("GET /leads"), 13);
  EXPECT_EQ(report.rate_limited, 2);
}

TEST_P(UsageStoreTest, WeekAcrossNewYear) {
  const auto k = key(ws_, 'a');
  // 2027-01-01 is a Friday; its ISO week began on Monday 2026-12-28.
  store_->usage().record({at(k, "2026-12-28T00:00:00.000Z", "GET /leads", 1, 0, 0),
                          at(k, "2026-12-27T23:00:00.000Z", "GET /leads", 10, 0, 0),
                          at(k, "2027-01-03T23:00:00.000Z", "GET /leads", 100, 0, 0)});
  const auto report = report_at(k, ts("2027-01-01T00:00:00.000Z"));
  EXPECT_EQ(report.this_week, 101);
  EXPECT_EQ(report.this_month, 100);
  EXPECT_EQ(report.today, 0);
}

TEST_P(UsageStoreTest, KeyWithoutRequestsAndUnknownKeys) {
  const auto k = key(ws_, 'a');
  const auto report = report_at(k, clock_.now());
  EXPECT_EQ(report.today, 0);
  EXPECT_EQ(report.this_month, 0);
  EXPECT_EQ(report.error_rate, 0);
  EXPECT_TRUE(report.by_endpoint.empty());
  const domain::ApiKeyId unknown{"01890000-0000-7000-8000-000000000000"};
  EXPECT_TRUE(std::holds_alternative<NotFound>(usage_at(unknown, clock_.now())));
  // Deltas of unknown keys are dropped without losing the rest of the batch.
  const domain::Timestamp now = clock_.now();
  store_->usage().record({{unknown, domain::utc_hour(now), "GET /leads", 1, 0, 0, now},
                          {k, domain::utc_hour(now), "GET /leads", 1, 0, 0, now}});
  EXPECT_EQ(report_at(k, now).today, 1);
}

// A database of a build that counted per day: each day's rows become its first hour's, in the
// key's workspace, and read as before.
TEST_P(UsageStoreTest, DayRowsOfAnOlderDatabaseBecomeTheirDaysFirstHour) {
  const std::string url = other_database_url();
  {
    std::unique_ptr<sql::Connection> old;
    std::vector<Migration> before;
    if (backend() == Backend::kSqlite) {
      old = std::make_unique<sqlite::Connection>(url.substr(std::string("sqlite:").size()));
      before = sqlite::migrations();
    } else {
      old = std::make_unique<postgres::Connection>(url);
      before = postgres::migrations();
    }
    before.erase(std::find_if(before.begin(), before.end(),
                              [](const Migration& m) { return m.name.ends_with("_usage_hours"); }),
                 before.end());
    apply_migrations(*old, before, domain::now());
    const std::int64_t dec_1 = ts("2026-12-01T00:00:00.000Z").unix_ms / 86'400'000;
    old->execute_script(
        "INSERT INTO workspaces (id, name, created_at) VALUES ('w1', 'Old', 1);"
        "INSERT INTO api_keys (id, workspace_id, name, prefix, key_hash, scopes, created_at) "
        "VALUES ('k1', 'w1', 'old key', 'fc_live_Ab12', 'h1', 1, 1);"
        "INSERT INTO key_usage (key_id, day, endpoint, requests, errors, rate_limited) VALUES "
        "('k1', " +
        std::to_string(dec_1 + 1) + ", 'GET /leads', 5, 2, 1), ('k1', " + std::to_string(dec_1) +
        ", 'POST /leads', 3, 0, 0);");
  }
  clock_.set(ts("2026-12-02T12:00:00.000Z"));  // a Wednesday
  const auto upgraded = open_database(url, clock_);
  const domain::ApiKeyId k{"k1"};
  const auto report = std::get<UsageReport>(upgraded->usage().report(k));
  EXPECT_EQ(report.today, 5);
  EXPECT_EQ(report.this_week, 8);
  EXPECT_EQ(report.this_month, 8);
  EXPECT_EQ(report.by_endpoint,
            (std::map<std::string, std::int64_t>{{"GET /leads", 5}, {"POST /leads", 3}}));
  EXPECT_DOUBLE_EQ(report.error_rate, 2.0 / 8.0);
  EXPECT_EQ(report.rate_limited, 1);
}

}  // namespace
}  // namespace leadline::store::testing
