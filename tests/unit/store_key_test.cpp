// API keys: create, lookup by hash, list, revoke once. Their usage: store_usage_test.cpp.
#include <thread>

#include "store_test_fixture.hpp"

namespace leadline::store::testing {
namespace {

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

}  // namespace
}  // namespace leadline::store::testing
