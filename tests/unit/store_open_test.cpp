// Opening a store: URL handling, migrations applied once, the shared cursor secret, and two
// store instances on one file seeing each other's writes.
#include <sqlite3.h>

#include <latch>
#include <thread>

#include "store_test_fixture.hpp"

namespace leadline::store::testing {
namespace {

int schema_version_rows(const std::filesystem::path& file) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM schema_version", -1, &stmt, nullptr);
  EXPECT_EQ(sqlite3_step(stmt), SQLITE_ROW);
  const int n = sqlite3_column_int(stmt, 0);
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return n;
}

TEST(OpenStoreTest, RejectsUnsupportedUrls) {
  EXPECT_THROW(open_store("postgres://localhost/leadline"), std::runtime_error);
  EXPECT_THROW(open_store("mysql:x"), std::runtime_error);
  EXPECT_THROW(open_store("sqlite:"), std::runtime_error);
  try {
    open_store("redis://x");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("use sqlite:PATH"), std::string::npos) << e.what();
  }
}

TEST_F(StoreTest, CreatesParentDirectoryAndDatabase) {
  EXPECT_TRUE(std::filesystem::exists(dir_.path() / "data" / "leadline.db"));
}

TEST_F(StoreTest, ReopeningKeepsDataAndAppliesMigrationsOnce) {
  const auto lead = store_->create_lead(ws_, lead_named("Ada"));
  const std::string secret = store_->cursor_secret();
  store_.reset();
  store_ = open_store(url());
  store_ = open_store(url());
  EXPECT_EQ(schema_version_rows(dir_.path() / "data" / "leadline.db"), 1);
  EXPECT_TRUE(store_->get_lead(ws_, lead.id).has_value());
  EXPECT_EQ(store_->cursor_secret(), secret);
}

TEST_F(StoreTest, CursorSecretIs32RandomBytesInHex) {
  const std::string secret = store_->cursor_secret();
  ASSERT_EQ(secret.size(), 64u);
  EXPECT_EQ(secret.find_first_not_of("0123456789abcdef"), std::string::npos);
  TempDir other;
  auto other_store = open_store("sqlite:" + (other.path() / "x.db").string());
  EXPECT_NE(other_store->cursor_secret(), secret);
}

TEST_F(StoreTest, TwoInstancesOnOneFileShareSecretAndSeeRevocation) {
  auto second = open_store(url());
  EXPECT_EQ(second->cursor_secret(), store_->cursor_secret());

  NewApiKey key{ws_, "ci", "fc_live_abcd", std::string(64, 'a'), 3, {}};
  const auto created = store_->create_api_key(key);
  auto seen = second->find_key_by_hash(key.key_hash);
  ASSERT_TRUE(seen.has_value());
  EXPECT_FALSE(seen->revoked_at.has_value());

  ASSERT_TRUE(std::holds_alternative<ApiKeyRecord>(second->revoke_api_key(created.id)));
  seen = store_->find_key_by_hash(key.key_hash);
  ASSERT_TRUE(seen.has_value());
  EXPECT_TRUE(seen->revoked_at.has_value());
}

TEST(OpenStoreTest, SimultaneousOpensOfAFreshFileMigrateOnce) {
  TempDir dir;
  const auto file = dir.path() / "fresh.db";
  constexpr int kOpeners = 8;
  std::latch start(kOpeners);
  std::vector<std::unique_ptr<Store>> stores(kOpeners);
  std::vector<std::thread> threads;
  for (int i = 0; i < kOpeners; ++i) {
    threads.emplace_back([&, i] {
      start.arrive_and_wait();
      stores[i] = open_store("sqlite:" + file.string());
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(schema_version_rows(file), 1);
  for (const auto& s : stores) EXPECT_EQ(s->cursor_secret(), stores[0]->cursor_secret());
}

TEST_F(StoreTest, WorkspacesAndPeople) {
  EXPECT_TRUE(store_->workspace_exists(ws_));
  EXPECT_FALSE(store_->workspace_exists({"01890000-0000-7000-8000-000000000000"}));
  const auto all = store_->list_workspaces();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].id, ws_);
  EXPECT_EQ(all[0].name, "Workspace A");
  EXPECT_EQ(all[1].id, other_ws_);

  const auto rep = store_->add_rep(ws_, person("Rita", "Rep", "rita@x.io"));
  EXPECT_EQ(rep.id.size(), 36u);
  EXPECT_EQ(rep.id[14], '7');
  EXPECT_EQ(rep.first_name, "Rita");
  EXPECT_GT(rep.created_at.unix_ms, 0);
  const auto agent = store_->add_agent(ws_, person("Alan", "Agent", "alan@x.io"));
  EXPECT_NE(agent.id, rep.id);
  const auto dept = store_->add_department(ws_, "Sales");
  EXPECT_EQ(dept.name, "Sales");
  EXPECT_EQ(dept.id.value.size(), 36u);
}

}  // namespace
}  // namespace leadline::store::testing
