// The feed guarantee of GET /events on PostgreSQL (docs/webhooks.md, "Keeping a copy in sync"):
// a follower asking `GET /events?after=<last id>` gets every event exactly once and in the
// order a later reader from scratch sees, even when a transaction that took its id earlier
// commits after transactions that took theirs later. Each test makes commits overtake on
// purpose, writes through one instance and follows through the other:
//
// - a transaction of the test's own (libpq) takes its id first, then inserts an event row
//   while the server commits other writes, and commits last;
// - a POST /leads of the server itself takes its id, then waits on a counter row the test
//   locks, while POST /contacts commit around it.

#include <gtest/gtest.h>
#include <libpq-fe.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <boost/json.hpp>

#include "support/checks.hpp"
#include "support/cli_runner.hpp"
#include "support/http_client.hpp"
#include "support/postgres_instance.hpp"
#include "support/server_process.hpp"

namespace leadline_test {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;

constexpr const char* kApiBase = "/api/v1/external";

// One libpq connection kept open, so that a transaction can stay open across statements.
class PgSession {
 public:
  explicit PgSession(const std::string& url) : conn_(PQconnectdb(url.c_str())) {
    if (PQstatus(conn_) != CONNECTION_OK) {
      std::string why = PQerrorMessage(conn_);
      PQfinish(conn_);
      throw std::runtime_error("cannot connect to " + url + ": " + why);
    }
  }
  ~PgSession() { PQfinish(conn_); }
  PgSession(const PgSession&) = delete;
  PgSession& operator=(const PgSession&) = delete;

  // Runs `sql` with text parameters; the first column of the first row ("" when none).
  std::string run(const std::string& sql, const std::vector<std::string>& params = {}) {
    std::vector<const char*> values;
    for (const auto& p : params) values.push_back(p.c_str());
    PGresult* res = PQexecParams(conn_, sql.c_str(), static_cast<int>(values.size()), nullptr,
                                 values.data(), nullptr, nullptr, 0);
    const ExecStatusType status = PQresultStatus(res);
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
      std::string why = PQresultErrorMessage(res);
      PQclear(res);
      throw std::runtime_error(sql + ": " + why);
    }
    std::string out = PQntuples(res) > 0 && PQnfields(res) > 0 ? PQgetvalue(res, 0, 0) : "";
    PQclear(res);
    return out;
  }

 private:
  PGconn* conn_;
};

// A lowercase UUID version 7 of now, for an event row the test writes itself.
std::string new_uuid_v7() {
  static std::mt19937_64 rng{std::random_device{}()};
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
  const std::uint64_t r = rng();
  char out[37];
  std::snprintf(out, sizeof out, "%08llx-%04llx-7%03llx-%04llx-%012llx",
                static_cast<unsigned long long>((ms >> 16) & 0xffffffffULL),
                static_cast<unsigned long long>(ms & 0xffffULL),
                static_cast<unsigned long long>(r & 0xfffULL),
                static_cast<unsigned long long>(0x8000ULL | ((r >> 12) & 0x3fffULL)),
                static_cast<unsigned long long>((r >> 26) & 0xffffffffffffULL));
  return out;
}

// Follows the feed in a thread of its own, as the documented recipe does: GET /events?after=
// the last id received, every page until an empty one, then again a few milliseconds later.
class Follower {
 public:
  Follower(const ServerProcess& server, std::string key)
      : client_(server.host(), server.port()), key_(std::move(key)) {
    thread_ = std::thread([this] { run(); });
  }
  ~Follower() { stop(); }

  void stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }

  std::vector<std::string> seen() const {
    std::lock_guard lock(mu_);
    return seen_;
  }
  std::vector<std::string> errors() const {
    std::lock_guard lock(mu_);
    return errors_;
  }
  int polls() const { return polls_.load(); }

  // Waits (at most `limit`) until the follower has received `n` events.
  bool wait_for(std::size_t n, std::chrono::milliseconds limit) const {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < deadline) {
      {
        std::lock_guard lock(mu_);
        if (seen_.size() >= n) return true;
      }
      std::this_thread::sleep_for(10ms);
    }
    return false;
  }

 private:
  void run() {
    std::string after;
    while (!stop_) {
      ++polls_;
      for (;;) {
        std::string target = std::string(kApiBase) + "/events?limit=50" +
                             (after.empty() ? "" : "&after=" + url_encode(after));
        HttpResponse res;
        try {
          res = client_.request("GET", target, std::nullopt, {{"Authorization", "Bearer " + key_}});
        } catch (const std::exception& e) {
          note_error("GET " + target + ": " + e.what());
          return;
        }
        if (res.status != 200 || !res.json) {
          note_error("GET " + target + "\n" + res.describe());
          return;
        }
        const json::array& items = res.data().as_array();
        if (items.empty()) break;
        std::lock_guard lock(mu_);
        for (const auto& item : items) {
          after = str(item.at("id"));
          seen_.push_back(after);
        }
      }
      std::this_thread::sleep_for(5ms);
    }
  }

  void note_error(std::string what) {
    std::lock_guard lock(mu_);
    errors_.push_back(std::move(what));
  }

  HttpClient client_;
  std::string key_;
  std::atomic<bool> stop_{false};
  std::atomic<int> polls_{0};
  mutable std::mutex mu_;
  std::vector<std::string> seen_;
  std::vector<std::string> errors_;
  std::thread thread_;
};

class EventsFeedTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_url_ = fresh_postgres_database();
    workspace_ = str(
        as_obj(run_cli_json({"workspaces", "create", "--name", "Feed", "--db", db_url_})).at("id"));
    key_ = str(as_obj(run_cli_json({"keys", "create", "--workspace", workspace_, "--name", "k",
                                    "--scopes", "read,write", "--db", db_url_}))
                   .at("key"));
    for (int i = 0; i < 2; ++i) {
      ServerOptions options;
      options.db_url = db_url_;
      options.extra_args = {"--rate-limit", "1000000/60s"};
      servers_.push_back(std::make_unique<ServerProcess>(options));
    }
    writer_ = std::make_unique<HttpClient>(servers_[0]->host(), servers_[0]->port());
    reader_ = std::make_unique<HttpClient>(servers_[1]->host(), servers_[1]->port());
  }

  Headers auth() const { return {{"Authorization", "Bearer " + key_}}; }

  // POST a lead (or a contact) through instance 1; the new record's id.
  std::string create(const std::string& resource, const json::object& body) {
    HttpResponse r = writer_->request("POST", std::string(kApiBase) + "/" + resource,
                                      json::serialize(body), auth());
    EXPECT_EQ(r.status, 201u) << r.describe();
    return r.status == 201 ? str(as_obj(r.data()).at("id")) : std::string();
  }
  std::string create_lead(const std::string& name) {
    return create("leads", {{"visitor_name", name}, {"pipeline_stage", "qualified"}});
  }
  std::string create_contact(const std::string& email) {
    return create("contacts", {{"first_name", "Feed"}, {"email", email}});
  }

  // The whole feed from scratch, following `after`.
  std::vector<json::object> feed_by_after() {
    std::vector<json::object> all;
    std::string after;
    for (int page = 0; page < 1000; ++page) {
      HttpResponse r = reader_->request(
          "GET",
          std::string(kApiBase) + "/events?limit=7" + (after.empty() ? "" : "&after=" + after),
          std::nullopt, auth());
      if (r.status != 200) {
        ADD_FAILURE() << r.describe();
        return all;
      }
      if (r.data().as_array().empty()) return all;
      for (const auto& e : r.data().as_array()) {
        all.push_back(e.as_object());
        after = str(e.at("id"));
      }
    }
    ADD_FAILURE() << "the feed did not end";
    return all;
  }

  // The feed from scratch once it holds `n` events. On PostgreSQL an acknowledged write's event
  // shows a moment later if any transaction of the cluster that the reader cannot place in
  // another database ran across it (docs/webhooks.md): the feed is delayed, never reordered.
  std::vector<json::object> feed_once_it_holds(std::size_t n) {
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    std::vector<json::object> all = feed_by_after();
    while (all.size() < n && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(20ms);
      all = feed_by_after();
    }
    return all;
  }

  // The ids of the whole feed from scratch, paged by cursor.
  std::vector<std::string> feed_by_cursor() {
    std::vector<std::string> all;
    std::string cursor;
    for (int page = 0; page < 1000; ++page) {
      HttpResponse r = reader_->request("GET",
                                        std::string(kApiBase) + "/events?limit=7" +
                                            (cursor.empty() ? "" : "&cursor=" + url_encode(cursor)),
                                        std::nullopt, auth());
      if (r.status != 200) {
        ADD_FAILURE() << r.describe();
        return all;
      }
      for (const auto& e : r.data().as_array()) all.push_back(str(e.at("id")));
      const json::object& pagination = r.object().at("pagination").as_object();
      if (!pagination.at("has_more").as_bool()) return all;
      cursor = str(pagination.at("next_cursor"));
    }
    ADD_FAILURE() << "the feed did not end";
    return all;
  }

  // The follower received every event of the feed exactly once, in the order of the feed as
  // read from scratch afterwards (by `after` and by cursor alike); `must_hold` are among them.
  void expect_followed_exactly(const Follower& follower, std::size_t expected,
                               const std::vector<std::string>& must_hold) {
    for (const auto& e : follower.errors()) ADD_FAILURE() << "the follower: " << e;
    const std::vector<std::string> seen = follower.seen();
    std::map<std::string, int> times;
    for (const auto& id : seen) ++times[id];
    for (const auto& [id, n] : times) {
      EXPECT_EQ(n, 1) << "the follower received event " << id << " " << n << " times";
    }
    std::vector<std::string> from_scratch;
    for (const auto& e : feed_by_after()) from_scratch.push_back(str(e.at("id")));
    EXPECT_EQ(from_scratch.size(), expected) << "events in the feed";
    EXPECT_EQ(seen, from_scratch)
        << "the follower's order differs from the feed read from scratch afterwards";
    EXPECT_EQ(feed_by_cursor(), from_scratch) << "paging by cursor and by `after` differ";
    for (const auto& id : must_hold) {
      EXPECT_EQ(times[id], 1) << "the follower received event " << id << " " << times[id]
                              << " times";
    }
  }

  std::string db_url_;
  std::string workspace_;
  std::string key_;
  std::vector<std::unique_ptr<ServerProcess>> servers_;
  std::unique_ptr<HttpClient> writer_;
  std::unique_ptr<HttpClient> reader_;
};

// A transaction of the test takes its id, the server commits writes with later ids, the test's
// transaction then writes an event row and commits last.
TEST_F(EventsFeedTest, AnEventOfAnEarlierTransactionThatCommitsLastIsNotSkipped) {
  create_lead("before");
  std::vector<json::object> first = feed_once_it_holds(1);
  ASSERT_EQ(first.size(), 1u);
  Follower follower(*servers_[1], key_);
  ASSERT_TRUE(follower.wait_for(1, 5s));

  PgSession early(db_url_);
  early.run("BEGIN");
  const std::string early_xid = early.run("SELECT pg_current_xact_id()::text");
  for (int i = 0; i < 5; ++i) create_lead("overtaking-" + std::to_string(i));
  const std::string latest_xid = PgSession(db_url_).run(
      "SELECT max(tx)::text FROM events WHERE workspace_id = $1", {workspace_});
  ASSERT_LT(std::stoll(early_xid), std::stoll(latest_xid))
      << "the server's writes took later transaction ids than the open transaction";
  std::this_thread::sleep_for(200ms);
  const std::size_t seen_while_open = follower.seen().size();

  // The open transaction writes its event now, after the others committed, and commits.
  json::object body = first.front();
  const std::string early_event = new_uuid_v7();
  body["id"] = early_event;
  early.run(
      "INSERT INTO events (workspace_id, id, type, created_at, body) VALUES ($1, $2, $3, "
      "(extract(epoch from clock_timestamp()) * 1000)::bigint, $4)",
      {workspace_, early_event, str(body.at("type")), json::serialize(body)});
  std::this_thread::sleep_for(100ms);
  early.run("COMMIT");
  for (int i = 0; i < 5; ++i) create_lead("after-" + std::to_string(i));

  EXPECT_TRUE(follower.wait_for(12, 10s))
      << "the follower received " << follower.seen().size() << " of 12 events";
  std::this_thread::sleep_for(200ms);  // time for a duplicate to arrive
  follower.stop();
  std::cout << "[feed] while the early transaction was open the follower had " << seen_while_open
            << " of the 6 committed events; " << follower.polls() << " polls\n";
  expect_followed_exactly(follower, 12, {early_event});
}

// The server's own write path: a POST /leads takes its transaction id with the lead's row, then
// waits for the lead counter rows that the test holds locked; POST /contacts (other counter
// rows) commit meanwhile with later ids; the lead's transaction writes its event and commits
// when the test lets go.
TEST_F(EventsFeedTest, AServerWriteOvertakenByLaterCommitsIsNotSkipped) {
  create_contact("first@feed.test");
  Follower follower(*servers_[1], key_);
  ASSERT_TRUE(follower.wait_for(1, 5s));

  // Every shard row of the workspace's qualified-lead count exists, so that the lock catches
  // the insert whatever backend serves it.
  PgSession lock(db_url_);
  lock.run(
      "INSERT INTO record_counts (workspace_id, record_type, bucket, shard, n) "
      "SELECT $1, 'lead', 'qualified', s, 0 FROM generate_series(0, 15) AS s "
      "ON CONFLICT DO NOTHING",
      {workspace_});
  lock.run("BEGIN");
  lock.run(
      "SELECT count(*) FROM (SELECT 1 FROM record_counts WHERE workspace_id = $1 AND "
      "record_type = 'lead' FOR UPDATE) AS locked",
      {workspace_});

  std::string early_lead;
  std::thread early([&] {
    HttpClient client(servers_[0]->host(), servers_[0]->port());
    HttpResponse r =
        client.request("POST", std::string(kApiBase) + "/leads",
                       R"({"visitor_name":"early","pipeline_stage":"qualified"})", auth());
    EXPECT_EQ(r.status, 201u) << r.describe();
    if (r.status == 201) early_lead = str(as_obj(r.data()).at("id"));
  });

  // The POST is waiting on the lock, inside a transaction that already has its id.
  PgSession probe(db_url_);
  std::string early_xid;
  for (int i = 0; i < 500 && early_xid.empty(); ++i) {
    early_xid = probe.run(
        "SELECT backend_xid::text FROM pg_stat_activity WHERE datname = current_database() "
        "AND wait_event_type = 'Lock' AND backend_xid IS NOT NULL LIMIT 1");
    if (early_xid.empty()) std::this_thread::sleep_for(10ms);
  }
  if (early_xid.empty()) {
    lock.run("ROLLBACK");
    early.join();
    FAIL() << "the POST /leads never waited on the locked counter rows with a transaction id";
  }

  for (int i = 0; i < 5; ++i) create_contact("overtaking-" + std::to_string(i) + "@feed.test");
  const std::string latest_xid =
      probe.run("SELECT max(tx)::text FROM events WHERE workspace_id = $1", {workspace_});
  EXPECT_LT(std::stoll(early_xid), std::stoll(latest_xid))
      << "the contacts committed with later transaction ids than the waiting lead's";
  std::this_thread::sleep_for(200ms);
  const std::size_t seen_while_waiting = follower.seen().size();

  lock.run("ROLLBACK");
  early.join();
  ASSERT_FALSE(early_lead.empty());
  const std::string early_event = probe.run(
      "SELECT id FROM events WHERE workspace_id = $1 AND type = 'lead.created'", {workspace_});
  EXPECT_EQ(probe.run("SELECT tx::text FROM events WHERE id = $1", {early_event}), early_xid)
      << "the lead's event was written by the transaction that waited";
  for (int i = 0; i < 5; ++i) create_contact("after-" + std::to_string(i) + "@feed.test");

  EXPECT_TRUE(follower.wait_for(12, 10s))
      << "the follower received " << follower.seen().size() << " of 12 events";
  std::this_thread::sleep_for(200ms);
  follower.stop();
  std::cout << "[feed] while the lead's transaction waited the follower had " << seen_while_waiting
            << " of the 6 committed events; " << follower.polls() << " polls\n";
  expect_followed_exactly(follower, 12, {early_event});
}

}  // namespace
}  // namespace leadline_test
