// Usage per key and UTC hour: the report's windows, the split into outcomes, last_at, the
// workspace's report and series (zero-filled, with exact window edges), a key of another
// workspace, the retention purge, and the day rows an older database held. On both backends.
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

using domain::UsageBucket;
using domain::UsageSeries;

// One flush's counts of `key` at `iso`: that hour's row, with `iso` as its latest request.
UsageDelta at(const domain::ApiKeyId& key, const char* iso, std::string endpoint,
              std::int64_t requests, std::int64_t errors, std::int64_t rate_limited) {
  const domain::Timestamp t = ts(iso);
  return {key, domain::utc_hour(t), std::move(endpoint), requests, errors, rate_limited, t};
}

UsageBucket bucket(const char* iso, std::int64_t success, std::int64_t error,
                   std::int64_t rate_limited) {
  return {ts(iso).unix_ms, success, error, rate_limited};
}

std::int64_t requests_in(const UsageBucket& b) {
  return b.success + b.error + b.rate_limited;
}

class UsageStoreTest : public StoreTest {
 protected:
  domain::ApiKeyId key(const domain::WorkspaceId& ws, char hash_fill) {
    return store_->keys().create(new_key(ws, std::string(1, hash_fill), hash_fill)).id;
  }

  UsageSeries series_at(const domain::WorkspaceId& ws, const std::optional<domain::ApiKeyId>& k,
                        domain::Timestamp now) {
    clock_.set(now);
    auto result = store_->usage().series(ws, k);
    if (!std::holds_alternative<UsageSeries>(result)) {
      ADD_FAILURE() << "series: not found";
      return {};
    }
    return std::get<UsageSeries>(result);
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
  EXPECT_EQ(store_->usage().last_used(ws_).size(), 1u);
}

TEST_P(UsageStoreTest, AnHourSplitsIntoSuccessErrorAndRateLimited) {
  const auto k = key(ws_, 'a');
  const auto now = ts("2026-12-01T12:59:00.000Z");
  // errors include the 429s: 10 requests = 6 successes + 3 other errors + 1 rate-limited.
  store_->usage().record({at(k, "2026-12-01T12:10:00.000Z", "GET /leads", 10, 4, 1),
                          at(k, "2026-12-01T12:50:00.000Z", "POST /leads", 5, 2, 2)});
  store_->usage().record({at(k, "2026-12-01T12:20:00.000Z", "GET /leads", 3, 1, 0)});
  const auto series = series_at(ws_, std::nullopt, now);
  ASSERT_EQ(series.hourly.size(), 48u);
  EXPECT_EQ(series.hourly.back(), bucket("2026-12-01T12:00:00.000Z", 6 + 3 + 2, 3 + 1, 1 + 2));
  EXPECT_EQ(series.daily.back(), bucket("2026-12-01T00:00:00.000Z", 11, 4, 3));
  EXPECT_EQ(requests_in(series.daily.back()), report_at(k, now).today);
}

TEST_P(UsageStoreTest, LastAtIsTheLatestRequestOfEachKey) {
  const auto a = key(ws_, 'a');
  const auto b = key(ws_, 'b');
  const auto idle = key(ws_, 'c');
  const auto elsewhere = key(other_ws_, 'd');
  store_->usage().record({at(a, "2026-12-01T12:40:00.000Z", "GET /leads", 1, 0, 0),
                          at(b, "2026-12-01T09:15:00.000Z", "GET /leads", 1, 0, 0),
                          at(elsewhere, "2026-12-01T12:45:00.000Z", "GET /leads", 1, 0, 0)});
  // A later flush of the same row with an earlier request (another instance's) keeps the max.
  store_->usage().record({at(a, "2026-12-01T12:05:00.000Z", "GET /leads", 1, 0, 0)});
  // The latest request of b is in a later hour, on another endpoint, than its earlier rows.
  store_->usage().record({at(b, "2026-12-01T08:59:59.999Z", "POST /leads", 1, 0, 0),
                          at(b, "2026-12-01T10:00:00.001Z", "POST /leads", 1, 0, 0)});
  EXPECT_EQ(store_->usage().last_used(ws_),
            (std::map<std::string, domain::Timestamp>{{a.value, ts("2026-12-01T12:40:00.000Z")},
                                                      {b.value, ts("2026-12-01T10:00:00.001Z")}}));
  store_->usage().record({at(a, "2026-12-01T12:41:00.000Z", "POST /leads", 1, 0, 0)});
  EXPECT_EQ(store_->usage().last_used(ws_).at(a.value), ts("2026-12-01T12:41:00.000Z"));
  EXPECT_FALSE(store_->usage().last_used(ws_).contains(idle.value));
  EXPECT_EQ(store_->usage().last_used(other_ws_).size(), 1u);
}

TEST_P(UsageStoreTest, WorkspaceReportIsTheSumOfItsKeys) {
  const auto a = key(ws_, 'a');
  const auto b = key(ws_, 'b');
  const auto elsewhere = key(other_ws_, 'c');
  const auto now = ts("2026-12-01T12:00:00.000Z");
  store_->usage().record({at(a, "2026-12-01T01:00:00.000Z", "GET /leads", 10, 2, 1),
                          at(a, "2026-11-30T01:00:00.000Z", "POST /leads", 4, 0, 0),
                          at(b, "2026-12-01T11:00:00.000Z", "GET /leads", 6, 3, 0),
                          at(b, "2026-12-15T11:00:00.000Z", "GET /contacts", 5, 0, 0),
                          at(elsewhere, "2026-12-01T11:00:00.000Z", "GET /leads", 1000, 1000, 0)});
  const auto ra = report_at(a, now);
  const auto rb = report_at(b, now);
  clock_.set(now);
  const auto total = store_->usage().workspace_report(ws_);
  EXPECT_EQ(total.today, ra.today + rb.today);
  EXPECT_EQ(total.today, 16);
  EXPECT_EQ(total.this_week, 20);
  EXPECT_EQ(total.this_month, 21);  // 30 November is in this week, not this month
  EXPECT_EQ(total.by_endpoint,
            (std::map<std::string, std::int64_t>{{"GET /leads", 16}, {"GET /contacts", 5}}));
  EXPECT_DOUBLE_EQ(total.error_rate, 5.0 / 21.0);
  EXPECT_EQ(total.rate_limited, ra.rate_limited + rb.rate_limited);

  const auto empty = store_->usage().workspace_report({"01890000-0000-7000-8000-000000000000"});
  EXPECT_EQ(empty.this_month, 0);
  EXPECT_TRUE(empty.by_endpoint.empty());
}

TEST_P(UsageStoreTest, SeriesIsZeroFilledAndEndsWithTheCurrentHourAndDay) {
  const auto k = key(ws_, 'a');
  const auto now = ts("2026-12-01T12:34:56.789Z");
  store_->usage().record({
      at(k, "2026-12-01T12:00:00.000Z", "GET /leads", 1, 0, 0),   // the current hour
      at(k, "2026-11-29T13:00:00.000Z", "GET /leads", 2, 2, 0),   // the oldest of the 48 hours
      at(k, "2026-11-29T12:59:59.999Z", "GET /leads", 4, 4, 4),   // before them; its day counts
      at(k, "2026-12-01T13:00:00.000Z", "GET /leads", 8, 0, 0),   // ahead of the clock, today
      at(k, "2026-11-02T00:00:00.000Z", "GET /leads", 16, 0, 0),  // the oldest of the 30 days
      at(k, "2026-11-01T23:59:59.999Z", "GET /leads", 32, 0, 0),  // before them
      at(k, "2026-12-02T00:00:00.000Z", "GET /leads", 64, 0, 0),  // tomorrow
  });
  const auto series = series_at(ws_, std::nullopt, now);

  ASSERT_EQ(series.hourly.size(), UsageSeries::kHours);
  for (std::size_t i = 0; i < series.hourly.size(); ++i) {
    EXPECT_EQ(series.hourly[i].start_ms,
              ts("2026-11-29T13:00:00.000Z").unix_ms + static_cast<std::int64_t>(i) * 3'600'000)
        << i;
  }
  EXPECT_EQ(series.hourly.front(), bucket("2026-11-29T13:00:00.000Z", 0, 2, 0));
  EXPECT_EQ(series.hourly.back(), bucket("2026-12-01T12:00:00.000Z", 1, 0, 0));
  for (std::size_t i = 1; i + 1 < series.hourly.size(); ++i) {
    EXPECT_EQ(requests_in(series.hourly[i]), 0) << i;
  }

  ASSERT_EQ(series.daily.size(), UsageSeries::kDays);
  for (std::size_t i = 0; i < series.daily.size(); ++i) {
    EXPECT_EQ(series.daily[i].start_ms,
              ts("2026-11-02T00:00:00.000Z").unix_ms + static_cast<std::int64_t>(i) * 86'400'000)
        << i;
  }
  EXPECT_EQ(series.daily.front(), bucket("2026-11-02T00:00:00.000Z", 16, 0, 0));
  EXPECT_EQ(series.daily[27], bucket("2026-11-29T00:00:00.000Z", 0, 2, 4));
  EXPECT_EQ(series.daily.back(), bucket("2026-12-01T00:00:00.000Z", 9, 0, 0));
  std::int64_t all_days = 0;
  for (const auto& day : series.daily) all_days += requests_in(day);
  EXPECT_EQ(all_days, 16 + 6 + 9);
  // The chart's today is the report's.
  EXPECT_EQ(requests_in(series.daily.back()), report_at(k, now).today);

  // A workspace without usage gets every bucket, all zero.
  const auto empty = series_at(other_ws_, std::nullopt, now);
  ASSERT_EQ(empty.hourly.size(), UsageSeries::kHours);
  ASSERT_EQ(empty.daily.size(), UsageSeries::kDays);
  EXPECT_EQ(empty.hourly.back(), bucket("2026-12-01T12:00:00.000Z", 0, 0, 0));
  EXPECT_TRUE(std::all_of(empty.daily.begin(), empty.daily.end(),
                          [](const UsageBucket& b) { return requests_in(b) == 0; }));
}

TEST_P(UsageStoreTest, SeriesOfOneKeyAndOfAnotherWorkspacesKey) {
  const auto a = key(ws_, 'a');
  const auto b = key(ws_, 'b');
  const auto elsewhere = key(other_ws_, 'c');
  const auto now = ts("2026-12-01T12:30:00.000Z");
  store_->usage().record({at(a, "2026-12-01T12:00:00.000Z", "GET /leads", 1, 0, 0),
                          at(b, "2026-12-01T12:00:00.000Z", "GET /leads", 2, 1, 1),
                          at(elsewhere, "2026-12-01T12:00:00.000Z", "GET /leads", 4, 0, 0)});
  EXPECT_EQ(series_at(ws_, std::nullopt, now).hourly.back(),
            bucket("2026-12-01T12:00:00.000Z", 2, 0, 1));
  EXPECT_EQ(series_at(ws_, a, now).hourly.back(), bucket("2026-12-01T12:00:00.000Z", 1, 0, 0));
  EXPECT_EQ(series_at(ws_, b, now).daily.back(), bucket("2026-12-01T00:00:00.000Z", 1, 0, 1));
  EXPECT_EQ(series_at(other_ws_, std::nullopt, now).hourly.back(),
            bucket("2026-12-01T12:00:00.000Z", 4, 0, 0));
  EXPECT_TRUE(std::holds_alternative<NotFound>(store_->usage().series(ws_, elsewhere)));
  EXPECT_TRUE(std::holds_alternative<NotFound>(store_->usage().series(other_ws_, a)));
  EXPECT_TRUE(std::holds_alternative<NotFound>(
      store_->usage().series(ws_, domain::ApiKeyId{"01890000-0000-7000-8000-000000000000"})));
}

TEST_P(UsageStoreTest, PurgeRemovesOnlyWholeHoursOlderThanTheCutoff) {
  const auto a = key(ws_, 'a');
  const auto elsewhere = key(other_ws_, 'b');
  const auto now = ts("2026-12-01T11:30:00.000Z");
  store_->usage().record({at(a, "2026-12-01T08:10:00.000Z", "GET /leads", 1, 0, 0),
                          at(a, "2026-12-01T08:20:00.000Z", "POST /leads", 2, 0, 0),
                          at(elsewhere, "2026-12-01T09:59:59.999Z", "GET /leads", 4, 0, 0),
                          at(a, "2026-12-01T10:00:00.000Z", "GET /leads", 8, 0, 0),
                          at(a, "2026-12-01T11:00:00.000Z", "GET /leads", 16, 0, 0)});
  // The cutoff falls inside 10:00-11:00, which still holds newer counts and stays.
  const auto cutoff = ts("2026-12-01T10:30:00.000Z");
  EXPECT_EQ(store_->usage().purge_older_than(cutoff, 2), 2);
  EXPECT_EQ(store_->usage().purge_older_than(cutoff, 2), 1);
  EXPECT_EQ(store_->usage().purge_older_than(cutoff, 2), 0);
  auto hours = series_at(ws_, std::nullopt, now).hourly;
  EXPECT_EQ(requests_in(hours[44]), 0);  // 08:00
  EXPECT_EQ(requests_in(hours[46]), 8);  // 10:00
  EXPECT_EQ(requests_in(hours[47]), 16);
  EXPECT_EQ(requests_in(series_at(other_ws_, std::nullopt, now).hourly[45]), 0);  // 09:00
  EXPECT_EQ(report_at(a, now).today, 24);

  // A cutoff on an hour's start: that hour ended by it.
  EXPECT_EQ(store_->usage().purge_older_than(ts("2026-12-01T11:00:00.000Z"), 500), 1);
  EXPECT_EQ(report_at(a, now).today, 16);
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
  const domain::WorkspaceId ws{"w1"};
  EXPECT_EQ(upgraded->usage().workspace_report(ws).this_month, 8);
  const auto series = std::get<UsageSeries>(upgraded->usage().series(ws, k));
  EXPECT_EQ(series.daily.back(), bucket("2026-12-02T00:00:00.000Z", 3, 1, 1));
  EXPECT_EQ(series.daily[28], bucket("2026-12-01T00:00:00.000Z", 3, 0, 0));
  EXPECT_EQ(series.hourly[35], bucket("2026-12-02T00:00:00.000Z", 3, 1, 1));
  EXPECT_EQ(upgraded->usage().last_used(ws),
            (std::map<std::string, domain::Timestamp>{{"k1", ts("2026-12-02T00:00:00.000Z")}}));
}

}  // namespace
}  // namespace leadline::store::testing
