// What only the PostgreSQL store has to show: several store instances on one database (usage
// counters adding up, one e-mail winner, one secret, one migration), a server that goes away
// and comes back, and the query plans of search and deep keyset pages.
#include <libpq-fe.h>

#include <atomic>
#include <cstdlib>
#include <iostream>
#include <latch>
#include <mutex>
#include <set>
#include <thread>

#include "store/contact_store.hpp"
#include "store/conversation_store.hpp"
#include "store/lead_store.hpp"
#include "store/postgres/connection_pool.hpp"
#include "store/postgres/pg_connection.hpp"
#include "store/postgres/postgres_dialect.hpp"
#include "store/postgres/postgres_migrations.hpp"
#include "store/records/list_sort_keys.hpp"
#include "store/sql/list_page.hpp"
#include "store_test_fixture.hpp"

namespace leadline::store::testing {
namespace {

// A libpq connection for looking at a database behind the store's back.
class Inspector {
 public:
  explicit Inspector(const std::string& url) : conn_(PQconnectdb(url.c_str())) {
    if (PQstatus(conn_) != CONNECTION_OK) {
      throw std::runtime_error(std::string("inspector cannot connect: ") + PQerrorMessage(conn_));
    }
  }
  ~Inspector() { PQfinish(conn_); }
  Inspector(const Inspector&) = delete;
  Inspector& operator=(const Inspector&) = delete;

  // Every row's columns joined by " ", rows joined by "\n".
  std::string query(const std::string& sql, const std::vector<std::string>& params = {}) {
    std::vector<const char*> values;
    for (const auto& p : params) values.push_back(p.c_str());
    PGresult* r = PQexecParams(conn_, sql.c_str(), static_cast<int>(values.size()), nullptr,
                               values.data(), nullptr, nullptr, 0);
    const auto status = PQresultStatus(r);
    if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) {
      const std::string error = PQresultErrorMessage(r);
      PQclear(r);
      throw std::runtime_error(sql.substr(0, 80) + ": " + error);
    }
    std::string out;
    for (int row = 0; row < PQntuples(r); ++row) {
      if (row > 0) out += '\n';
      for (int col = 0; col < PQnfields(r); ++col) {
        if (col > 0) out += ' ';
        out += PQgetvalue(r, row, col);
      }
    }
    PQclear(r);
    return out;
  }

 private:
  PGconn* conn_;
};

class PostgresStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    url_ = leadline_test::fresh_empty_postgres_database();
    first_ = open_database(url_);
    second_ = open_database(url_);
    ws_ = first_->workspaces().create("Workspace A").id;
  }

  std::string url_;
  std::unique_ptr<Database> first_;
  std::unique_ptr<Database> second_;
  domain::WorkspaceId ws_;
};

TEST_F(PostgresStoreTest, UsageFlushesOfTwoStoresAddUp) {
  const auto key = first_->keys().create({ws_, "k", "fc_live_abcd", std::string(64, 'a'), 3, {}});
  const domain::Timestamp now = domain::now();
  const std::int64_t hour = domain::utc_hour(now);
  constexpr int kFlushesPerStore = 40;
  std::latch start(2);
  std::vector<std::thread> threads;
  for (Database* store : {first_.get(), second_.get()}) {
    threads.emplace_back([&, store] {
      start.arrive_and_wait();
      for (int i = 0; i < kFlushesPerStore; ++i) {
        // Two rows per flush, in opposite orders from the two stores.
        std::vector<UsageDelta> deltas = {{key.id, hour, "GET /leads", 3, 1, 1, now},
                                          {key.id, hour, "POST /leads", 2, 0, 0, now}};
        if (store == second_.get()) std::swap(deltas[0], deltas[1]);
        store->usage().record(deltas);
      }
    });
  }
  for (auto& t : threads) t.join();
  const auto report = std::get<UsageReport>(second_->usage().report(key.id));
  EXPECT_EQ(report.today, 2 * kFlushesPerStore * 5);
  EXPECT_EQ(report.by_endpoint.at("GET /leads"), 2 * kFlushesPerStore * 3);
  EXPECT_EQ(report.by_endpoint.at("POST /leads"), 2 * kFlushesPerStore * 2);
  EXPECT_EQ(report.rate_limited, 2 * kFlushesPerStore);
}

TEST_F(PostgresStoreTest, ConcurrentCreatesOfOneEmailOnTwoStoresGiveOneWinnerAndItsId) {
  constexpr int kThreads = 50;
  std::latch start(kThreads);
  std::mutex mutex;
  std::vector<std::string> winners;
  std::vector<std::string> named_as_existing;
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      Database& store = i % 2 ? *first_ : *second_;
      const std::string email = i % 3 ? "Race@Example.com" : "race@EXAMPLE.com";
      start.arrive_and_wait();
      auto result = store.contacts().create(ws_, contact_named("T" + std::to_string(i), email));
      std::lock_guard lock(mutex);
      if (auto* c = std::get_if<domain::Contact>(&result)) {
        winners.push_back(c->id.value);
      } else {
        named_as_existing.push_back(std::get<EmailConflict>(result).existing_id.value);
      }
    });
  }
  for (auto& t : threads) t.join();
  ASSERT_EQ(winners.size(), 1u);
  ASSERT_EQ(named_as_existing.size(), static_cast<std::size_t>(kThreads - 1));
  for (const auto& id : named_as_existing) EXPECT_EQ(id, winners[0]);
  EXPECT_EQ(first_->contacts().list(ws_, {}).total_count, 1);
}

TEST_F(PostgresStoreTest, InstancesShareTheCursorSecretAndMigrateOnce) {
  EXPECT_EQ(first_->cursor_secret(), second_->cursor_secret());
  const auto third = open_database(url_);
  EXPECT_EQ(third->cursor_secret(), first_->cursor_secret());
  Inspector db(url_);
  // Every embedded migration exactly once (built from the list, so a new migration needs no
  // edit here).
  std::string applied;
  for (const auto& m : postgres::migrations()) {
    applied += (applied.empty() ? "" : "\n") + std::to_string(m.version) + " ";
    applied += m.name;
  }
  EXPECT_EQ(db.query("SELECT version, name FROM schema_migrations ORDER BY version"), applied);
  EXPECT_EQ(db.query("SELECT COUNT(*) FROM meta"), "1");
  EXPECT_EQ(db.query("SELECT value FROM meta WHERE key = 'cursor_secret'"),
            first_->cursor_secret());
  EXPECT_EQ(db.query("SELECT extname FROM pg_extension WHERE extname = 'pg_trgm'"), "pg_trgm");
}

TEST_F(PostgresStoreTest, RecordsWrittenByOneInstanceAreSeenByTheOther) {
  const auto lead = first_->leads().create(ws_, lead_named("Shared"));
  const auto seen = second_->leads().get(ws_, lead.id);
  ASSERT_TRUE(seen.has_value());
  EXPECT_EQ(seen->visitor_name, "Shared");
  domain::LeadPatch patch;
  patch.visitor_name = "Changed";
  ASSERT_TRUE(std::holds_alternative<domain::Lead>(second_->leads().update(ws_, lead.id, patch)));
  EXPECT_EQ(first_->leads().get(ws_, lead.id)->visitor_name, "Changed");
}

TEST_F(PostgresStoreTest, ConcurrentPatchesOfOneLeadAllApply) {
  const auto lead = first_->leads().create(ws_, lead_named("Counter"));
  constexpr int kThreads = 16;
  std::latch start(kThreads);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      Database& store = i % 2 ? *first_ : *second_;
      domain::LeadPatch patch;
      patch.tags = std::vector<std::string>{"t" + std::to_string(i)};
      start.arrive_and_wait();
      EXPECT_TRUE(std::holds_alternative<domain::Lead>(store.leads().update(ws_, lead.id, patch)));
    });
  }
  for (auto& t : threads) t.join();
  // Each changing PATCH moved updated_at forward by at least 1 ms past the one before it.
  const auto final_lead = *first_->leads().get(ws_, lead.id);
  EXPECT_GE(final_lead.updated_at.unix_ms, lead.updated_at.unix_ms + kThreads);
}

// A filtered list's statements are planned for each execution with their values (a rare search
// needle and a common one need different plans); every other statement keeps one plan for all
// values (the next test shows why).
TEST_F(PostgresStoreTest, FilteredListsArePlannedWithTheirValuesAndOtherStatementsOnce) {
  postgres::Connection conn(url_);
  std::vector<sql::Statement> show;
  show.push_back({"SHOW plan_cache_mode", {}, sql::Planning::kPerValues});
  auto per_values = conn.query_together(std::move(show));
  ASSERT_TRUE(per_values[0].next());
  EXPECT_EQ(per_values[0].text(0), "force_custom_plan");
  auto once = conn.query("SHOW plan_cache_mode");
  ASSERT_TRUE(once.next());
  EXPECT_EQ(once.text(0), "force_generic_plan");
}

// A page with no filter beyond the workspace walks its sort's index whatever the values: it is
// planned once, where the plan cache left to itself planned it on every execution (its LIMIT,
// unseen, made the plan for all values look costlier). A filtered page is planned every time.
TEST_F(PostgresStoreTest, UnfilteredListPagesArePlannedOnceAndFilteredOnesPerExecution) {
  postgres::Connection conn(url_);
  auto list = [&](std::optional<std::string> stage) {
    auto sql = sql::ListSql::of_workspace("l.id", "leads l", "l", ws_.value);
    sql.sort_by(lead_sort_keys(LeadSortField::kCreatedAt), SortDirection::kDesc);
    if (stage) sql.filter("l.pipeline_stage = ?", *stage);
    for (int i = 0; i < 7; ++i) sql::run_list_rows(conn, sql, PageRequest{}, [](const auto&) {});
  };
  list(std::nullopt);
  list("qualified");
  auto plans = conn.query(
      "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE "
      "'%ORDER BY%' ORDER BY statement LIKE '%pipeline_stage%'");
  ASSERT_TRUE(plans.next());
  EXPECT_EQ(plans.int64(0), 7);  // unfiltered: one generic plan, used 7 times
  EXPECT_EQ(plans.int64(1), 0);
  ASSERT_TRUE(plans.next());
  EXPECT_EQ(plans.int64(0), 0);  // filtered by stage
  EXPECT_EQ(plans.int64(1), 7);
}

// Inside an import, statements are planned with their values, but a contact's look-up by
// e-mail keeps one plan for all: for a workspace the statistics do not know yet, a plan for its
// values may walk any index that starts with the workspace (one by name, reading all of the
// workspace's contacts for each look-up), while the plan for all values takes the e-mail's. So
// does the look-up of a thousand e-mails at a time that an import makes.
TEST_F(PostgresStoreTest, ContactLookupsByEmailKeepOnePlanForAllWorkspacesEvenInAnImport) {
  for (int i = 0; i < 300; ++i) {
    first_->contacts().create(
        ws_, contact_named("C" + std::to_string(i), "c" + std::to_string(i) + "@x.io"));
  }
  Inspector inspector(url_);
  inspector.query("ANALYZE contacts");
  const auto other = first_->workspaces().create("Workspace B").id;

  postgres::Connection conn(url_);
  {
    postgres::Transaction tx(conn, postgres::Transaction::Kind::kWrite);
    conn.plan_with_values_until_commit();
    for (int i = 0; i < 7; ++i) {
      EXPECT_FALSE(find_contact_by_email(conn, other, "c1@x.io"));
      EXPECT_TRUE(find_contacts_people_by_emails(conn, other, {"c1@x.io", "c2@x.io"}).empty());
      conn.query("SELECT count(*) FROM contacts WHERE workspace_id = ?", sql::Params().id(other))
          .next();
    }
    const auto found = find_contacts_people_by_emails(conn, ws_, {"c1@x.io", "c2@x.io", "z@x.io"});
    EXPECT_EQ(found.size(), 2u);
    EXPECT_EQ(found.at("c2@x.io").first_name, "C2");
    tx.commit();
  }
  auto plans = conn.query(
      "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE "
      "'%FROM contacts WHERE workspace_id = $1%' AND statement NOT LIKE '%generic_plans%' "
      "ORDER BY statement LIKE '%count%', statement LIKE '%jsonb%'");
  ASSERT_TRUE(plans.next());
  EXPECT_EQ(plans.int64(0), 7);  // the look-up: one generic plan, used 7 times
  EXPECT_EQ(plans.int64(1), 0);
  ASSERT_TRUE(plans.next());
  EXPECT_EQ(plans.int64(0), 8);  // the look-up of many: one generic plan, used 8 times
  EXPECT_EQ(plans.int64(1), 0);
  ASSERT_TRUE(plans.next());
  EXPECT_EQ(plans.int64(0), 0);  // the import's own statement: planned each time
  EXPECT_EQ(plans.int64(1), 7);

  inspector.query(
      "PREPARE by_email(text, text) AS SELECT id FROM contacts WHERE workspace_id = $1 AND "
      "email_folded = $2");
  inspector.query("SET plan_cache_mode = force_generic_plan");
  const std::string plan =
      inspector.query("EXPLAIN EXECUTE by_email('" + other.value + "', 'c1@x.io')");
  EXPECT_NE(plan.find("email"), std::string::npos) << plan;
}

// A list page's plan for all values is estimated for an unknown LIMIT, which is costly enough
// to be compiled with JIT on every execution (10 ms per contacts page at 100k contacts).
TEST_F(PostgresStoreTest, ConnectionsRunWithoutJitOrParallelWorkers) {
  postgres::Connection conn(url_);
  auto jit = conn.query("SHOW jit");
  ASSERT_TRUE(jit.next());
  EXPECT_EQ(jit.text(0), "off");
  auto workers = conn.query("SHOW max_parallel_workers_per_gather");
  ASSERT_TRUE(workers.next());
  EXPECT_EQ(workers.text(0), "0");
}

// A workspace filled since the last ANALYZE is one the statistics do not know. Planned with its
// values, a read by id expected one row of every index that starts with the workspace, and the
// tie went to leads_by_stage, which it walked to the lead (57 ms for one lead of 50k). A
// statement's one plan for all values, made for an average workspace, takes the primary key.
TEST_F(PostgresStoreTest, ReadsByIdKeepOnePlanThatTakesTheKeyInAWorkspaceTheStatisticsDoNotKnow) {
  for (int i = 0; i < 300; ++i) first_->leads().create(ws_, lead_named("A" + std::to_string(i)));
  Inspector inspector(url_);
  inspector.query("ANALYZE leads");
  const auto other = first_->workspaces().create("Workspace B").id;
  std::vector<domain::LeadId> ids;
  for (int i = 0; i < 300; ++i) {
    ids.push_back(first_->leads().create(other, lead_named("B" + std::to_string(i))).id);
  }

  postgres::Connection conn(url_);
  for (int i = 0; i < 7; ++i) {
    EXPECT_TRUE(conn.query("SELECT visitor_name FROM leads WHERE workspace_id = ? AND id = ?",
                           sql::Params().id(other).id(ids[static_cast<std::size_t>(i)]))
                    .next());
  }
  auto plans = conn.query(
      "SELECT name, generic_plans, custom_plans FROM pg_prepared_statements WHERE statement "
      "LIKE 'SELECT visitor_name FROM leads%'");
  ASSERT_TRUE(plans.next());
  const std::string name = plans.text(0);
  EXPECT_EQ(plans.int64(1), 7);
  EXPECT_EQ(plans.int64(2), 0);
  auto explained =
      conn.query("EXPLAIN EXECUTE " + name + "('" + other.value + "', '" + ids[0].value + "')");
  std::string plan;
  while (explained.next()) plan += explained.text(0) + "\n";
  EXPECT_NE(plan.find("leads_pkey"), std::string::npos) << plan;
}

// Each pooled connection raises counter rows of its own (migration 0014), so an instance's
// concurrent writes never wait on one another's commit for a counter; another session (psql, a
// script) raises its pid's.
TEST_F(PostgresStoreTest, EachPooledConnectionRaisesItsOwnCounterShard) {
  constexpr int kConnections = postgres::ConnectionPool::kWriteShards;
  postgres::ConnectionPool pool(url_, kConnections, std::chrono::seconds(10));
  std::vector<postgres::ConnectionPool::Lease> leases;
  std::set<std::int64_t> shards;
  for (int i = 0; i < kConnections; ++i) {
    leases.push_back(pool.acquire());
    // Set by the pool, not a pid's remainder that happens to differ.
    auto row = leases.back().conn().query(
        "SELECT leadline_write_shard(), current_setting('leadline.write_shard', true)");
    ASSERT_TRUE(row.next());
    shards.insert(row.int64(0));
    EXPECT_EQ(row.text(1), std::to_string(row.int64(0)));
  }
  EXPECT_EQ(shards.size(), static_cast<std::size_t>(kConnections));

  Inspector inspector(url_);
  EXPECT_EQ(inspector.query("SELECT leadline_write_shard() = pg_backend_pid() % 16"), "t");
  // A statement that writes leads on a pooled connection raises that connection's shard.
  first_->leads().create(ws_, lead_named("Counted"));
  auto& conn = leases[3].conn();
  auto shard = conn.query("SELECT leadline_write_shard()");
  ASSERT_TRUE(shard.next());
  const std::string mine = std::to_string(shard.int64(0));
  const auto version_of_mine = [&] {
    return inspector.query(
        "SELECT COALESCE(SUM(version), 0) FROM lead_versions WHERE workspace_id = $1 AND shard "
        "= " +
            mine,
        {ws_.value});
  };
  const std::string before = version_of_mine();
  for (const char* summary : {"x", "y"}) {
    conn.execute("UPDATE leads SET need_summary = ? WHERE workspace_id = ?",
                 sql::Params().text(summary).id(ws_));
  }
  EXPECT_EQ(version_of_mine(), std::to_string(std::stoll(before) + 2));
}

TEST(PostgresServerLossTest, UnavailableWhileDownAndRecoversAfterRestart) {
  leadline_test::PostgresServer server;
  const std::string url = leadline_test::create_postgres_database(server.url());
  auto store = open_database(url);
  const auto ws = store->workspaces().create("W").id;
  const auto lead = store->leads().create(ws, lead_named("Before"));
  // Several pooled connections, all of which the restart will kill.
  std::vector<std::thread> readers;
  for (int i = 0; i < 4; ++i) {
    readers.emplace_back([&] { EXPECT_TRUE(store->leads().get(ws, lead.id).has_value()); });
  }
  for (auto& t : readers) t.join();

  server.halt();
  const auto expect_unavailable = [](const auto& call) {
    try {
      call();
      ADD_FAILURE() << "no StoreUnavailable while the server is down";
    } catch (const StoreUnavailable& e) {
      EXPECT_TRUE(std::string(e.what()).starts_with("database unavailable: ")) << e.what();
    }
  };
  expect_unavailable([&] { store->leads().get(ws, lead.id); });
  expect_unavailable([&] { store->leads().create(ws, lead_named("During")); });
  expect_unavailable([&] { store->leads().list(ws, {}); });
  expect_unavailable([&] { open_database(url); });

  server.resume();
  EXPECT_TRUE(store->leads().get(ws, lead.id).has_value());
  store->leads().create(ws, lead_named("After"));
  EXPECT_EQ(store->leads().list(ws, {}).total_count, 2);
}

TEST(PostgresServerLossTest, RestartWhileIdleIsInvisibleToTheNextCall) {
  leadline_test::PostgresServer server;
  const std::string url = leadline_test::create_postgres_database(server.url());
  auto store = open_database(url);
  const auto ws = store->workspaces().create("W").id;
  server.halt();
  server.resume();
  // The pooled connections died with the old server; the store replaces them on its own.
  EXPECT_TRUE(store->workspaces().exists(ws));
  store->leads().create(ws, lead_named("After restart"));
  server.halt();
  server.resume();
  EXPECT_EQ(store->leads().list(ws, {}).total_count, 1);
  store->leads().create(ws, lead_named("Second restart"));
}

// Query plans on 100,000 leads. Skipped unless LEADLINE_EXPLAIN_PLANS is set (see
// tools/test-services/explain_plans.sh): filling the table takes a while.
class QueryPlanTest : public ::testing::Test {
 protected:
  static constexpr int kLeads = 100'000;
  static constexpr std::int64_t kBase = 1'700'000'000'000;
  // Row g's change time (updated_at, a contact's last_activity): a permutation of the rows
  // (7919 is prime), so that change order and creation order differ.
  static constexpr std::string_view kShuffledTime = "1700000000000 + ((g * 7919) % $2::int) * 1000";

  void SetUp() override {
    if (!std::getenv("LEADLINE_EXPLAIN_PLANS")) GTEST_SKIP() << "set LEADLINE_EXPLAIN_PLANS=1";
    url_ = leadline_test::fresh_empty_postgres_database();
    store_ = open_database(url_);
    ws_ = store_->workspaces().create("Big").id;
    const auto other = store_->workspaces().create("Other").id;
    db_ = std::make_unique<Inspector>(url_);
    // Every 1000th lead works at "Zyxwvu Labs"; the rest at one of a few big companies.
    const std::string fill =
        "INSERT INTO leads (id, workspace_id, visitor_name, visitor_email, visitor_company, "
        "pipeline_stage, source, lead_score, created_at, updated_at, visitor_name_folded, "
        "search_folded) "
        "SELECT id, $1, name, lower(name) || '@example.com', company, "
        "CASE WHEN g % 5 = 0 THEN 'qualified' ELSE 'new' END, 'api', "
        "CASE WHEN g % 7 = 0 THEN NULL ELSE (g % 100)::float8 END, "
        "1700000000000 + g * 1000, " +
        std::string(kShuffledTime) +
        ", lower(name), "
        "lower(name) || E'\\n' || lower(name) || '@example.com' || E'\\n' || lower(company) "
        "FROM (SELECT g, lpad(to_hex(g), 8, '0') || '-0000-7000-8000-000000000000' AS id, "
        "'Lead ' || g AS name, CASE WHEN g % 1000 = 0 THEN 'Zyxwvu Labs' "
        "ELSE 'Company ' || (g % 10) END AS company FROM generate_series(1, $2::int) g) s";
    db_->query(fill, {ws_.value, std::to_string(kLeads)});
    db_->query(fill, {other.value, std::to_string(kLeads / 10)});
    db_->query("ANALYZE leads");
  }

  // The plan PostgreSQL runs `sql` with for these values. The store's connections plan every
  // execution with its values (plan_cache_mode = force_custom_plan), so this is its plan too.
  std::string plan(const std::string& sql, const std::vector<SortValue>& params) {
    std::vector<std::string> texts;
    for (const auto& p : params) {
      if (const auto* i = std::get_if<std::int64_t>(&p)) texts.push_back(std::to_string(*i));
      if (const auto* d = std::get_if<double>(&p)) texts.push_back(std::to_string(*d));
      if (const auto* s = std::get_if<std::string>(&p)) texts.push_back(*s);
    }
    return db_->query("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) " +
                          postgres::number_placeholders(sql),
                      texts);
  }

  void expect_plan_uses(const std::string& title, const std::string& plan, const std::string& index,
                        const std::string& or_index = {}) {
    std::cout << "== " << title << "\n" << plan << "\n\n";
    EXPECT_EQ(plan.find("Seq Scan"), std::string::npos) << title;
    EXPECT_TRUE(plan.find(index) != std::string::npos ||
                (!or_index.empty() && plan.find(or_index) != std::string::npos))
        << title << " does not use " << index;
    EXPECT_LT(most_rows_filtered_out(plan), 5000) << title << " reads rows it does not return";
  }

  // kLeads contacts and as many conversations (conversation g with contact g), shaped like
  // the leads: every 1000th at "Zyxwvu Labs", every 10th tagged "vip", a quarter open.
  void fill_contacts_and_conversations() {
    db_->query(
        "INSERT INTO contacts (workspace_id, id, first_name, email, company_name, tags, "
        "last_activity, created_at, updated_at, first_name_folded, email_folded, search_folded, "
        "visitor_search_folded) "
        "SELECT $1, id, name, lower(name) || '@example.com', company, tags, " +
            std::string(kShuffledTime) +
            ", 1700000000000 + g * 1000, 1700000000000 + g * 1000, lower(name), "
            "lower(name) || '@example.com', lower(name || E'\\n' || company), "
            "lower(name || E'\\n' || company) "
            "FROM (SELECT g, lpad(to_hex(g), 8, '0') || '-0000-7000-8000-000000000001' AS id, "
            "'Contact ' || g AS name, CASE WHEN g % 1000 = 0 THEN 'Zyxwvu Labs' "
            "ELSE 'Company ' || (g % 10) END AS company, "
            "CASE WHEN g % 10 = 0 THEN '[\"vip\"]'::jsonb ELSE '[]'::jsonb END AS tags "
            "FROM generate_series(1, $2::int) g) s",
        {ws_.value, std::to_string(kLeads)});
    db_->query(
        "INSERT INTO conversations (workspace_id, id, contact_id, source, status, tags, "
        "created_at, updated_at) "
        "SELECT $1, lpad(to_hex(g), 8, '0') || '-0000-7000-8000-000000000002', "
        "lpad(to_hex(g), 8, '0') || '-0000-7000-8000-000000000001', 'widget', "
        "CASE WHEN g % 4 = 0 THEN 'open' ELSE 'archived' END, "
        "CASE WHEN g % 10 = 0 THEN '[\"vip\"]'::jsonb ELSE '[]'::jsonb END, "
        "1700000000000 + g * 1000, " +
            std::string(kShuffledTime) + " FROM generate_series(1, $2::int) g",
        {ws_.value, std::to_string(kLeads)});
    db_->query("ANALYZE contacts");
    db_->query("ANALYZE conversations");
  }

  // A window holding 200 rows of kLeads, and its count and page plans.
  static UpdatedWindow narrow_window() {
    return {domain::Timestamp{kBase + 40'000'000}, domain::Timestamp{kBase + 40'200'000}};
  }

  void expect_window_plans(const std::string& title, const sql::ListStatements& st,
                           const std::string& index, const std::string& or_index = {}) {
    expect_plan_uses(title + " page", plan(st.page_sql, st.page_params), index, or_index);
    expect_plan_uses(title + " total_count", plan(st.count_sql, st.count_params), index, or_index);
  }

  // The largest "Rows Removed by Filter" of the plan: an index that is used but not sought
  // into shows as tens of thousands.
  static long most_rows_filtered_out(const std::string& plan) {
    static constexpr std::string_view kLabel = "Rows Removed by Filter: ";
    long most = 0;
    for (auto at = plan.find(kLabel); at != std::string::npos; at = plan.find(kLabel, at + 1)) {
      most = std::max(most, std::stol(plan.substr(at + kLabel.size())));
    }
    return most;
  }

  std::string url_;
  std::unique_ptr<Database> store_;
  domain::WorkspaceId ws_;
  std::unique_ptr<Inspector> db_;
};

TEST_F(QueryPlanTest, SearchUsesTheTrigramIndexAndDeepKeysetPagesTheSortIndex) {
  LeadListQuery search;
  search.search_folded = "zyxwvu";
  const auto found = store_->leads().list(ws_, search);
  EXPECT_EQ(found.total_count, kLeads / 1000);
  const auto search_sql = lead_list_statements(postgres::postgres_dialect(), ws_, search);
  expect_plan_uses("lead search page (search=zyxwvu, sort=created_at desc)",
                   plan(search_sql.page_sql, search_sql.page_params), "leads_search");
  expect_plan_uses("lead search total_count", plan(search_sql.count_sql, search_sql.count_params),
                   "leads_search");

  // A needle in most leads: walking the sort index and filtering finds a page sooner than
  // collecting every match through the trigram index, which only a plan made for this needle
  // knows.
  LeadListQuery common;
  common.search_folded = "company";
  const auto common_sql = lead_list_statements(postgres::postgres_dialect(), ws_, common);
  expect_plan_uses("lead search page (search=company, in 99.9% of leads)",
                   plan(common_sql.page_sql, common_sql.page_params), "leads_by_created");

  // Page 1000 of 100 by cursor: the position of the 50,000th lead in created_at order.
  for (const auto& [field, index] : std::vector<std::pair<LeadSortField, std::string>>{
           {LeadSortField::kCreatedAt, "leads_by_created"},
           {LeadSortField::kVisitorName, "leads_by_name"},
           {LeadSortField::kLeadScore, "leads_by_score_desc"}}) {
    LeadListQuery deep;
    deep.sort = {field, SortDirection::kDesc};
    deep.page.limit = 100;
    deep.page.offset = 50'000;
    const auto reached = store_->leads().list(ws_, deep);
    ASSERT_TRUE(reached.next_position.has_value());
    deep.page.offset = 0;
    deep.page.after = reached.next_position;
    const auto next = store_->leads().list(ws_, deep);
    EXPECT_EQ(next.items.size(), 100u);
    const auto deep_sql = lead_list_statements(postgres::postgres_dialect(), ws_, deep);
    expect_plan_uses("deep keyset page (" + index + ", desc, after row 50,100)",
                     plan(deep_sql.page_sql, deep_sql.page_params), index);
  }
}

TEST_F(QueryPlanTest, SyncWindowsReadTheirIndexWithEveryFilterAndSort) {
  fill_contacts_and_conversations();
  const auto& dialect = postgres::postgres_dialect();
  const UpdatedWindow window = narrow_window();
  const UpdatedWindow since_only{domain::Timestamp{kBase + (kLeads - 200) * 1000LL}, std::nullopt};

  LeadListQuery lead;
  lead.updated = window;
  EXPECT_EQ(store_->leads().list(ws_, lead).total_count, 200);
  expect_window_plans("leads window, created_at desc", lead_list_statements(dialect, ws_, lead),
                      "leads_by_updated");
  lead.updated = since_only;
  expect_window_plans("leads since, created_at desc", lead_list_statements(dialect, ws_, lead),
                      "leads_by_updated");
  lead.updated = window;
  lead.sort = {LeadSortField::kUpdatedAt, SortDirection::kAsc};
  expect_window_plans("leads window, updated_at asc", lead_list_statements(dialect, ws_, lead),
                      "leads_by_updated");
  lead.sort = {LeadSortField::kVisitorName, SortDirection::kAsc};
  lead.stage = domain::PipelineStage::kQualified;
  expect_window_plans("leads window, stage, visitor_name", lead_list_statements(dialect, ws_, lead),
                      "leads_by_updated");
  lead.stage.reset();
  lead.search_folded = "company 3";
  expect_window_plans("leads window, search, visitor_name",
                      lead_list_statements(dialect, ws_, lead), "leads_by_updated", "leads_search");

  ContactListQuery contact;
  contact.updated = window;
  EXPECT_EQ(store_->contacts().list(ws_, contact).total_count, 200);
  expect_window_plans("contacts window, created_at desc",
                      contact_list_statements(dialect, ws_, contact), "contacts_by_activity");
  contact.sort = {ContactSortField::kLastActivity, SortDirection::kDesc};
  expect_window_plans("contacts window, last_activity desc",
                      contact_list_statements(dialect, ws_, contact), "contacts_by_activity");
  contact.sort = {ContactSortField::kName, SortDirection::kAsc};
  contact.tag = "vip";
  expect_window_plans("contacts window, tag, name", contact_list_statements(dialect, ws_, contact),
                      "contacts_by_activity");
  contact.tag.reset();
  contact.search_folded = "company 3";
  expect_window_plans("contacts window, search, name",
                      contact_list_statements(dialect, ws_, contact), "contacts_by_activity",
                      "contacts_search");

  ConversationListQuery conversation;
  conversation.updated = window;
  EXPECT_EQ(store_->conversations().list(ws_, conversation).total_count, 200);
  expect_window_plans("conversations window, created_at desc",
                      conversation_list_statements(dialect, ws_, conversation),
                      "conversations_by_updated");
  conversation.updated = since_only;
  expect_window_plans("conversations since, created_at desc",
                      conversation_list_statements(dialect, ws_, conversation),
                      "conversations_by_updated");
  conversation.updated = window;
  conversation.sort = {ConversationSortField::kUpdatedAt, SortDirection::kDesc};
  expect_window_plans("conversations window, updated_at desc",
                      conversation_list_statements(dialect, ws_, conversation),
                      "conversations_by_updated");
  conversation.sort = {ConversationSortField::kCreatedAt, SortDirection::kAsc};
  conversation.status = domain::ConversationStatus::kOpen;
  expect_window_plans("conversations window, status",
                      conversation_list_statements(dialect, ws_, conversation),
                      "conversations_by_updated");
  conversation.status.reset();
  conversation.tag = "vip";
  expect_window_plans("conversations window, tag",
                      conversation_list_statements(dialect, ws_, conversation),
                      "conversations_by_updated");
  conversation.tag.reset();
  conversation.search_folded = "company 3";
  expect_window_plans("conversations window, search",
                      conversation_list_statements(dialect, ws_, conversation),
                      "conversations_by_updated", "contacts_search");
}

}  // namespace
}  // namespace leadline::store::testing
