// Opening a store: URL handling, migrations applied once, the shared cursor secret, and two
// store instances on one database seeing each other's writes.
#include <libpq-fe.h>
#include <sqlite3.h>

#include <latch>
#include <thread>
#include <utility>

#include "record_json/record_shapes.hpp"
#include "store/postgres/postgres_migrations.hpp"
#include "store/schema/migration_runner.hpp"
#include "store/sqlite/sqlite_connection.hpp"
#include "store/sqlite/sqlite_migrations.hpp"
#include "store_test_fixture.hpp"

namespace leadline::store::testing {
namespace {

int sqlite_migration_rows(const std::filesystem::path& file) {
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

int postgres_migration_rows(const std::string& url) {
  PGconn* conn = PQconnectdb(url.c_str());
  EXPECT_EQ(PQstatus(conn), CONNECTION_OK) << PQerrorMessage(conn);
  PGresult* r = PQexec(conn, "SELECT COUNT(*) FROM schema_migrations");
  EXPECT_EQ(PQresultStatus(r), PGRES_TUPLES_OK) << PQresultErrorMessage(r);
  const int n = PQntuples(r) == 1 ? std::atoi(PQgetvalue(r, 0, 0)) : -1;
  PQclear(r);
  PQfinish(conn);
  return n;
}

// Rows of the backend's migration bookkeeping table for the database of `url`.
int migration_rows(const std::string& url) {
  if (url.starts_with("sqlite:")) return sqlite_migration_rows(url.substr(7));
  return postgres_migration_rows(url);
}

// How many migrations this build knows for the database of `url`: one row each once applied.
int known_migrations(const std::string& url) {
  if (url.starts_with("sqlite:")) return static_cast<int>(sqlite::migrations().size());
  return static_cast<int>(postgres::migrations().size());
}

TEST(OpenStoreTest, RejectsUnsupportedUrls) {
  EXPECT_THROW(open_database("mysql:x"), std::runtime_error);
  EXPECT_THROW(open_database("sqlite:"), std::runtime_error);
  EXPECT_THROW(open_database("postgres:/x"), std::runtime_error);
  try {
    open_database("redis://x");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("use sqlite:PATH or postgres://"), std::string::npos)
        << e.what();
  }
}

TEST(OpenStoreTest, UnreachablePostgresIsStoreUnavailable) {
  for (const char* url : {"postgres://postgres@127.0.0.1:1/leadline",
                          "postgresql://postgres@127.0.0.1:1/leadline?sslmode=disable"}) {
    try {
      open_database(url);
      ADD_FAILURE() << url;
    } catch (const StoreUnavailable& e) {
      EXPECT_TRUE(std::string(e.what()).starts_with("database unavailable: ")) << e.what();
    }
  }
}

TEST(OpenStoreTest, SqliteCreatesParentDirectoryAndDatabase) {
  TempDir dir;
  open_database("sqlite:" + (dir.path() / "data" / "leadline.db").string());
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "data" / "leadline.db"));
}

TEST_P(StoreTest, ReopeningKeepsDataAndAppliesMigrationsOnce) {
  const auto lead = store_->leads().create(ws_, lead_named("Ada"));
  const std::string secret = store_->cursor_secret();
  store_.reset();
  store_ = open_database(url());
  store_ = open_database(url());
  EXPECT_EQ(migration_rows(url()), known_migrations(url()));
  EXPECT_TRUE(store_->leads().get(ws_, lead.id).has_value());
  EXPECT_EQ(store_->cursor_secret(), secret);
}

TEST_P(StoreTest, CursorSecretIs32RandomBytesInHex) {
  const std::string secret = store_->cursor_secret();
  ASSERT_EQ(secret.size(), 64u);
  EXPECT_EQ(secret.find_first_not_of("0123456789abcdef"), std::string::npos);
  auto other_store = open_database(other_database_url());
  EXPECT_NE(other_store->cursor_secret(), secret);
}

TEST_P(StoreTest, TwoInstancesOnOneDatabaseShareSecretAndSeeRevocation) {
  auto second = open_database(url());
  EXPECT_EQ(second->cursor_secret(), store_->cursor_secret());

  NewApiKey key{ws_, "ci", "fc_live_abcd", std::string(64, 'a'), 3, {}};
  const auto created = store_->keys().create(key);
  auto seen = second->keys().find_by_hash(key.key_hash);
  ASSERT_TRUE(seen.has_value());
  EXPECT_FALSE(seen->revoked_at.has_value());

  ASSERT_TRUE(std::holds_alternative<ApiKeyRecord>(second->keys().revoke(created.id)));
  seen = store_->keys().find_by_hash(key.key_hash);
  ASSERT_TRUE(seen.has_value());
  EXPECT_TRUE(seen->revoked_at.has_value());
}

TEST_P(StoreTest, SimultaneousOpensOfAFreshDatabaseMigrateOnce) {
  const std::string fresh = other_database_url();
  constexpr int kOpeners = 8;
  std::latch start(kOpeners);
  std::vector<std::unique_ptr<Database>> stores(kOpeners);
  std::vector<std::thread> threads;
  for (int i = 0; i < kOpeners; ++i) {
    threads.emplace_back([&, i] {
      start.arrive_and_wait();
      stores[i] = open_database(fresh);
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(migration_rows(fresh), known_migrations(fresh));
  for (const auto& s : stores) EXPECT_EQ(s->cursor_secret(), stores[0]->cursor_secret());
}

TEST_P(StoreTest, WorkspacesAndPeople) {
  EXPECT_TRUE(store_->workspaces().exists(ws_));
  EXPECT_FALSE(store_->workspaces().exists({"01890000-0000-7000-8000-000000000000"}));
  const auto all = store_->workspaces().list();
  ASSERT_EQ(all.size(), 2u);
  // Oldest first, ties broken by id: the two may share a millisecond, and UUIDv7s of one
  // millisecond are random after the time bits.
  EXPECT_TRUE(std::pair(all[0].created_at.unix_ms, all[0].id.value) <
              std::pair(all[1].created_at.unix_ms, all[1].id.value));
  const auto& a = all[0].id == ws_ ? all[0] : all[1];
  EXPECT_EQ(a.id, ws_);
  EXPECT_EQ(a.name, "Workspace A");
  EXPECT_EQ((all[0].id == ws_ ? all[1] : all[0]).id, other_ws_);

  const auto rep = store_->workspaces().add_rep(ws_, person("Rita", "Rep", "rita@x.io"));
  EXPECT_EQ(rep.id.size(), 36u);
  EXPECT_EQ(rep.id[14], '7');
  EXPECT_EQ(rep.first_name, "Rita");
  EXPECT_GT(rep.created_at.unix_ms, 0);
  const auto agent = store_->workspaces().add_agent(ws_, person("Alan", "Agent", "alan@x.io"));
  EXPECT_NE(agent.id, rep.id);
  const auto dept = store_->workspaces().add_department(ws_, "Sales");
  EXPECT_EQ(dept.name, "Sales");
  EXPECT_EQ(dept.id.value.size(), 36u);
}

}  // namespace
}  // namespace leadline::store::testing

namespace leadline::store::testing {
namespace {

// A database written by a build that knew only 0001 gains counts and search indexes that
// cover the rows it already holds.
TEST(OpenStoreTest, SqliteUpgradeCountsAndIndexesExistingRows) {
  TempDir dir;
  const std::string path = (dir.path() / "old.db").string();
  {
    sqlite::Connection old(path);
    apply_migrations(old, {sqlite::migrations().front()}, domain::now());
    old.execute_script(
        "INSERT INTO workspaces (id, name, created_at) VALUES ('w1', 'Old', 1);"
        "INSERT INTO leads (id, workspace_id, visitor_name, pipeline_stage, source, created_at, "
        "updated_at, visitor_name_folded, search_folded) VALUES "
        "('l1', 'w1', 'Zephyr One', 'new', 'api', 1, 1, 'zephyr one', 'zephyr one'),"
        "('l2', 'w1', 'Other', 'lost', 'api', 2, 2, 'other', 'other'),"
        "('l3', 'w1', 'Zephyr Two', 'lost', 'api', 3, 3, 'zephyr two', 'zephyr two');");
  }
  const auto store = open_database("sqlite:" + path);
  const domain::WorkspaceId ws{"w1"};
  EXPECT_EQ(store->leads().list(ws, {}).total_count, 3);
  LeadListQuery lost;
  lost.stage = domain::PipelineStage::kLost;
  EXPECT_EQ(store->leads().list(ws, lost).total_count, 2);
  LeadListQuery search;
  search.search_folded = "zephyr";
  const auto found = store->leads().list(ws, search);
  EXPECT_EQ(found.total_count, 2);
  EXPECT_EQ(found.items.size(), 2u);
}

// Every lead's rowid lies in its workspace's range (migration 0009): the high bits are the
// workspace's rowid. Empty when they all do, else the first lead that does not.
std::string lead_outside_its_workspace(const std::string& path) {
  sqlite::Connection db(path, sqlite::Connection::Open::kExisting);
  auto rows = db.query(
      "SELECT l.id FROM leads l JOIN workspaces w ON w.id = l.workspace_id "
      "WHERE l.rowid >> 40 <> w.rowid LIMIT 1");
  return rows.next() ? rows.text(0) : std::string();
}

// A database written before 0009, with the leads of two workspaces interleaved in rowid order,
// has its leads moved into their workspaces' rowid ranges; search counts stay exact per
// workspace, from the trigram index alone, and new leads join their workspace's range.
TEST(OpenStoreTest, SqliteUpgradeClustersLeadRowidsByWorkspace) {
  TempDir dir;
  const std::string path = (dir.path() / "old.db").string();
  {
    sqlite::Connection old(path);
    std::vector<Migration> before_0009;
    for (const auto& m : sqlite::migrations()) {
      if (m.version < 9) before_0009.push_back(m);
    }
    apply_migrations(old, before_0009, domain::now());
    old.execute_script(
        "INSERT INTO workspaces (id, name, created_at) VALUES ('w1', 'One', 1), ('w2', 'Two', 2);"
        "INSERT INTO leads (id, workspace_id, visitor_name, pipeline_stage, source, created_at, "
        "updated_at, visitor_name_folded, search_folded) VALUES "
        "('l1', 'w1', 'Zephyr One', 'new', 'api', 1, 1, 'zephyr one', 'zephyr one'),"
        "('l2', 'w2', 'Zephyr Two', 'new', 'api', 2, 2, 'zephyr two', 'zephyr two'),"
        "('l3', 'w1', 'Other', 'lost', 'api', 3, 3, 'other', 'other'),"
        "('l4', 'w2', 'Zephyr Four', 'lost', 'api', 4, 4, 'zephyr four', 'zephyr four'),"
        "('l5', 'w1', 'Zephyr Five', 'lost', 'api', 5, 5, 'zephyr five', 'zephyr five'),"
        "('l6', 'w2', 'Zephyr Six', 'new', 'api', 6, 6, 'zephyr six', 'zephyr six');");
  }
  const auto store = open_database("sqlite:" + path);
  EXPECT_EQ(lead_outside_its_workspace(path), "");
  const domain::WorkspaceId w1{"w1"};
  const domain::WorkspaceId w2{"w2"};
  LeadListQuery search;
  search.search_folded = "zephyr";
  EXPECT_EQ(store->leads().list(w1, search).total_count, 2);
  EXPECT_EQ(store->leads().list(w2, search).total_count, 3);
  store->leads().create(w1, lead_named("Zephyr New"));
  store->leads().create(w2, lead_named("Zephyr Newer"));
  EXPECT_EQ(lead_outside_its_workspace(path), "");
  const auto found = store->leads().list(w1, search);
  EXPECT_EQ(found.total_count, 3);
  ASSERT_EQ(found.items.size(), 3u);
  EXPECT_EQ(found.items.front().visitor_name, "Zephyr New");
  EXPECT_EQ(store->leads().list(w2, search).total_count, 4);
  search.stage = domain::PipelineStage::kLost;
  EXPECT_EQ(store->leads().list(w2, search).total_count, 1);

  // A write path that leaves the rowid to SQLite is refused, not silently miscounted.
  sqlite::Connection raw(path, sqlite::Connection::Open::kExisting);
  EXPECT_THROW(raw.execute_script(
                   "INSERT INTO leads (id, workspace_id, visitor_name, pipeline_stage, source, "
                   "created_at, updated_at, visitor_name_folded, search_folded) VALUES "
                   "('l9', 'w1', 'Stray', 'new', 'api', 9, 9, 'stray', 'stray')"),
               sqlite::SqliteError);
}

// A database written before 0012 keeps both searches with one contact index: the visitor's
// index is gone, conversation search still matches the visitor's name but not the phone, and
// contacts written before and after the upgrade are found alike.
TEST(OpenStoreTest, SqliteUpgradeSearchesConversationsThroughTheContactIndex) {
  TempDir dir;
  const std::string path = (dir.path() / "old.db").string();
  {
    sqlite::Connection old(path);
    std::vector<Migration> before_0012;
    for (const auto& m : sqlite::migrations()) {
      if (m.version < 12) before_0012.push_back(m);
    }
    apply_migrations(old, before_0012, domain::now());
    old.execute_script(
        "INSERT INTO workspaces (id, name, created_at) VALUES ('w1', 'One', 1);"
        "INSERT INTO contacts (id, workspace_id, first_name, phone, last_activity, created_at, "
        "updated_at, first_name_folded, search_folded, visitor_search_folded) VALUES "
        "('c1', 'w1', 'Zephyr', '5550199', 1, 1, 1, 'zephyr', 'zephyr\n\n\n5550199\n', "
        "'zephyr\n\n\n');"
        "INSERT INTO conversations (id, workspace_id, contact_id, source, status, created_at, "
        "updated_at) VALUES ('v1', 'w1', 'c1', 'chat', 'open', 1, 1);");
  }
  const auto store = open_database("sqlite:" + path);
  {
    sqlite::Connection db(path, sqlite::Connection::Open::kExisting);
    auto rows =
        db.query("SELECT COUNT(*) FROM sqlite_schema WHERE name LIKE 'contacts_visitor_search%'");
    rows.next();
    EXPECT_EQ(rows.int64(0), 0);
  }
  const domain::WorkspaceId w1{"w1"};
  ConversationListQuery conversations;
  conversations.search_folded = "zephyr";
  EXPECT_EQ(store->conversations().list(w1, conversations).total_count, 1);
  conversations.search_folded = "5550199";
  EXPECT_EQ(store->conversations().list(w1, conversations).total_count, 0);
  ContactListQuery contacts;
  contacts.search_folded = "5550199";
  EXPECT_EQ(store->contacts().list(w1, contacts).total_count, 1);

  domain::NewContact later = contact_named("Zephyrine", "z@x.io");
  later.phone = "5550199";
  ASSERT_TRUE(std::holds_alternative<domain::Contact>(store->contacts().create(w1, later)));
  EXPECT_EQ(store->contacts().list(w1, contacts).total_count, 2);
  contacts.search_folded = "zephyrine";
  EXPECT_EQ(store->contacts().list(w1, contacts).total_count, 1);
  conversations.search_folded = "zephyr";
  EXPECT_EQ(store->conversations().list(w1, conversations).total_count, 1);
}

// Contacts and conversations written before the figures were kept (SQLite 0016, PostgreSQL 0015)
// gain them in the upgrade: counted and dated from their conversations and messages (a tie of
// message times goes to the later id), zero and null without any.
TEST_P(StoreTest, UpgradeKeepsContactAndConversationFigures) {
  const std::string url = other_database_url();
  {
    const auto old = migrated_before(url, 16, 15);
    old->execute_script(
        "INSERT INTO workspaces (id, name, created_at) VALUES ('w1', 'One', 1);"
        "INSERT INTO contacts (workspace_id, id, first_name, last_activity, created_at, "
        "updated_at, first_name_folded, search_folded, visitor_search_folded) VALUES "
        "('w1', 'c1', 'Talker', 1, 1, 1, 'talker', 'talker', 'talker'),"
        "('w1', 'c2', 'Quiet', 1, 1, 1, 'quiet', 'quiet', 'quiet');"
        "INSERT INTO conversations (workspace_id, id, contact_id, source, status, created_at, "
        "updated_at) VALUES ('w1', 'v1', 'c1', 'chat', 'open', 5000, 5000),"
        "('w1', 'v2', 'c1', 'chat', 'open', 9000, 9000),"
        "('w1', 'v3', 'c1', 'chat', 'open', 7000, 7000),"
        "('w1', 'v4', NULL, 'chat', 'open', 9999, 9999);"
        "INSERT INTO messages (workspace_id, id, conversation_id, sender_type, content, status, "
        "created_at) VALUES ('w1', 'm1', 'v1', 'visitor', 'first', 'sent', 5100),"
        "('w1', 'm3', 'v1', 'agent', 'third', 'sent', 5200),"
        "('w1', 'm2', 'v1', 'visitor', 'second', 'sent', 5200);");
  }
  const auto store = open_database(url);
  const domain::WorkspaceId w1{"w1"};
  const auto talker = store->contacts().get(w1, domain::ContactId{"c1"});
  ASSERT_TRUE(talker.has_value());
  EXPECT_EQ(talker->conversation_count, 3);
  ASSERT_TRUE(talker->last_conversation_at.has_value());
  EXPECT_EQ(talker->last_conversation_at->unix_ms, 9000);
  const auto quiet = store->contacts().get(w1, domain::ContactId{"c2"});
  ASSERT_TRUE(quiet.has_value());
  EXPECT_EQ(quiet->conversation_count, 0);
  EXPECT_FALSE(quiet->last_conversation_at.has_value());
  const auto talked = store->conversations().get(w1, domain::ConversationId{"v1"});
  ASSERT_TRUE(talked.has_value());
  EXPECT_EQ(talked->conversation.message_count, 3);
  EXPECT_EQ(talked->conversation.last_message, "third");
  const auto silent = store->conversations().get(w1, domain::ConversationId{"v2"});
  ASSERT_TRUE(silent.has_value());
  EXPECT_EQ(silent->conversation.message_count, 0);
  EXPECT_FALSE(silent->conversation.last_message.has_value());
}

// Leads written before 0013 get their list-item JSON in the upgrade itself, rendered by leadline
// (SQLite's JSON functions would write 1500.0 for 1500), so no list page meets a lead without it.
TEST(OpenStoreTest, SqliteUpgradeRendersEveryLeadsListItem) {
  TempDir dir;
  const std::string path = (dir.path() / "old.db").string();
  {
    sqlite::Connection old(path);
    std::vector<Migration> before_0013;
    for (const auto& m : sqlite::migrations()) {
      if (m.version < 13) before_0013.push_back(m);
    }
    apply_migrations(old, before_0013, domain::now());
    old.execute_script(
        "INSERT INTO workspaces (id, name, created_at) VALUES ('w1', 'One', 1);"
        "INSERT INTO reps (id, workspace_id, first_name, last_name, email, created_at) VALUES "
        "('r1', 'w1', 'Rita', 'Rep \"R\"', 'rita@x.io', 1);"
        "INSERT INTO leads (rowid, id, workspace_id, visitor_name, pipeline_stage, source, "
        "created_at, updated_at, visitor_name_folded, search_folded, tags, "
        "expected_billing_amount, lead_score, assigned_rep_id) VALUES "
        "((1 << 40) + 1, 'l1', 'w1', 'Zephyr One', 'new', 'api', 1, 1, 'zephyr one', "
        "'zephyr one', '[\"a\",\"b\"]', 1500, 0.1, 'r1'),"
        "((1 << 40) + 2, 'l2', 'w1', 'Zephyr Two', 'lost', 'api', 2, 2, 'zephyr two', "
        "'zephyr two', '[]', NULL, 12.5, NULL);");
  }
  const auto store = open_database("sqlite:" + path);
  sqlite::Connection raw(path, sqlite::Connection::Open::kExisting);
  auto missing = raw.query("SELECT count(*) FROM leads WHERE item_json IS NULL");
  ASSERT_TRUE(missing.next());
  EXPECT_EQ(missing.int64(0), 0);

  const domain::WorkspaceId w1{"w1"};
  std::vector<std::string> expected;
  for (const auto& lead : store->leads().list(w1, {}).items) {
    std::string item;
    record_json::JsonWriter w(item);
    record_json::write_lead_item(w, lead);
    expected.push_back(item);
  }
  std::vector<std::string> rendered;
  store->leads().list_rendered(w1, {}, [&](std::string_view item) { rendered.emplace_back(item); });
  ASSERT_EQ(expected.size(), 2u);
  EXPECT_EQ(rendered, expected);
  EXPECT_NE(expected.back().find("\"expected_billing_amount\":1500,"), std::string::npos);
}

}  // namespace
}  // namespace leadline::store::testing
