// API keys (create, lookup by hash, list, revoke once) and the usage report's UTC windows.
#include <thread>

#include "store_test_fixture.hpp"

namespace leadline::store::testing {
namespace {

NewApiKey new_key(const domain::WorkspaceId& ws, std::string name, char hash_fill) {
  return {ws, std::move(name),      "fc_live_Ab12", std::string(64, hash_fill),
          1,  {"10.0.0.0/8", "::1"}};
}

std::int64_t day_of(const char* iso) {
  return ts(iso).unix_ms / 86'400'000;
}

TEST_P(StoreTest, CreateFindAndListKeys) {
  const auto a = store_->keys().create(new_key(ws_, "first", 'a'));
  clock_.advance(std::chrono::milliseconds(2));
  const auto b = store_->keys().create(new_key(ws_, "second", 'b'));
  store_->keys().create(new_key(other_ws_, "elsewhere", 'c'));
  EXPECT_EQ(a.id.value.size(), 36u);
  EXPECT_EQ(a.workspace_id, ws_);
  EXPECT_EQ(a.prefix, "fc_live_Ab12");
  EXPECT_EQ(a.scopes.bits, 1u);
  EXPECT_EQ(a.allowed_ips, (std::vector<std::string>{"10.0.0.0/8", "::1"}));
  EXPECT_FALSE(a.revoked_at.has_value());

  const auto found = store_->keys().find_by_hash(std::string(64, 'b'));
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->id, b.id);
  EXPECT_EQ(found->name, "second");
  EXPECT_EQ(found->created_at, b.created_at);
  EXPECT_EQ(found->allowed_ips, b.allowed_ips);
  EXPECT_FALSE(store_->keys().find_by_hash(std::string(64, 'z')).has_value());

  const auto listed = store_->keys().list(ws_);
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0].id, a.id);
  EXPECT_EQ(listed[1].id, b.id);
}

TEST_P(StoreTest, RevokeKeepsTheFirstTimeAndFindStillReturnsTheKey) {
  const auto key = store_->keys().create(new_key(ws_, "k", 'a'));
  const auto first = store_->keys().revoke(key.id);
  ASSERT_TRUE(std::holds_alternative<ApiKeyRecord>(first));
  const auto revoked_at = std::get<ApiKeyRecord>(first).revoked_at;
  ASSERT_TRUE(revoked_at.has_value());
  clock_.advance(std::chrono::milliseconds(3));
  const auto second = store_->keys().revoke(key.id);
  EXPECT_EQ(std::get<ApiKeyRecord>(second).revoked_at, revoked_at);
  EXPECT_EQ(store_->keys().find_by_hash(std::string(64, 'a'))->revoked_at, revoked_at);
  EXPECT_EQ(store_->keys().list(ws_).at(0).revoked_at, revoked_at);
  EXPECT_TRUE(std::holds_alternative<NotFound>(
      store_->keys().revoke({"01890000-0000-7000-8000-000000000000"})));
}

TEST_P(StoreTest, UsageReportWindows) {
  const auto key = store_->keys().create(new_key(ws_, "k", 'a'));
  // 2026-12-01 is a Tuesday: its ISO week runs from Monday 30 November to Sunday 6 December.
  const auto now = ts("2026-12-01T12:00:00.000Z");
  const std::vector<UsageDelta> deltas = {
      {key.id, day_of("2026-11-29T00:00:00.000Z"), "GET /leads", 100, 100, 100},  // nowhere
      {key.id, day_of("2026-11-30T00:00:00.000Z"), "GET /leads", 10, 10, 0},      // week only
      {key.id, day_of("2026-12-01T00:00:00.000Z"), "GET /leads", 5, 1, 1},
      {key.id, day_of("2026-12-01T23:59:59.999Z"), "POST /leads", 3, 0, 0},
      {key.id, day_of("2026-12-06T00:00:00.000Z"), "GET /leads", 2, 0, 0},     // week and month
      {key.id, day_of("2026-12-20T00:00:00.000Z"), "GET /contacts", 4, 2, 0},  // month only
  };
  store_->usage().record(deltas);
  auto result = usage_at(key.id, now);
  ASSERT_TRUE(std::holds_alternative<UsageReport>(result));
  auto report = std::get<UsageReport>(result);
  EXPECT_EQ(report.today, 8);
  EXPECT_EQ(report.this_week, 20);
  EXPECT_EQ(report.this_month, 14);
  EXPECT_EQ(report.by_endpoint, (std::map<std::string, std::int64_t>{
                                    {"GET /leads", 7}, {"POST /leads", 3}, {"GET /contacts", 4}}));
  EXPECT_DOUBLE_EQ(report.error_rate, 3.0 / 14.0);
  EXPECT_EQ(report.rate_limited, 1);

  // Flushes add to the same rows.
  store_->usage().record({{key.id, day_of("2026-12-01T08:00:00.000Z"), "GET /leads", 5, 1, 1}});
  report = std::get<UsageReport>(usage_at(key.id, now));
  EXPECT_EQ(report.today, 13);
  EXPECT_EQ(report.by_endpoint.at("GET /leads"), 12);
  EXPECT_EQ(report.rate_limited, 2);
}

TEST_P(StoreTest, UsageOfAKeyWithoutRequestsAndOfUnknownKeys) {
  const auto key = store_->keys().create(new_key(ws_, "k", 'a'));
  const auto report = std::get<UsageReport>(usage_at(key.id, clock_.now()));
  EXPECT_EQ(report.today, 0);
  EXPECT_EQ(report.this_month, 0);
  EXPECT_EQ(report.error_rate, 0);
  EXPECT_TRUE(report.by_endpoint.empty());
  const domain::ApiKeyId unknown{"01890000-0000-7000-8000-000000000000"};
  EXPECT_TRUE(std::holds_alternative<NotFound>(usage_at(unknown, clock_.now())));
  // Deltas of unknown keys are dropped without losing the rest of the batch.
  store_->usage().record({{unknown, 1, "GET /leads", 1, 0, 0},
                          {key.id, clock_.now().unix_ms / 86'400'000, "GET /leads", 1, 0, 0}});
  EXPECT_EQ(std::get<UsageReport>(usage_at(key.id, clock_.now())).today, 1);
}

TEST_P(StoreTest, UsageWeekAcrossNewYear) {
  const auto key = store_->keys().create(new_key(ws_, "k", 'a'));
  // 2027-01-01 is a Friday; its ISO week began on Monday 2026-12-28.
  store_->usage().record({{key.id, day_of("2026-12-28T00:00:00.000Z"), "GET /leads", 1, 0, 0},
                          {key.id, day_of("2026-12-27T00:00:00.000Z"), "GET /leads", 10, 0, 0},
                          {key.id, day_of("2027-01-03T00:00:00.000Z"), "GET /leads", 100, 0, 0}});
  const auto report = std::get<UsageReport>(usage_at(key.id, ts("2027-01-01T00:00:00.000Z")));
  EXPECT_EQ(report.this_week, 101);
  EXPECT_EQ(report.this_month, 100);
  EXPECT_EQ(report.today, 0);
}

}  // namespace
}  // namespace leadline::store::testing
