// Several `leadline serve` processes behind one address: one PostgreSQL database and one Redis
// shared by two instances on loopback. The rate limit is exact in total, a revocation counts at
// every instance on its next request, usage adds up, and a write through one instance is read
// through the other. And an unreachable database is a 503 until it is back. Both instances
// deliver webhooks, and without faults each event reaches the endpoint exactly once. One
// Idempotency-Key sent to both at once creates one record; its reuse for another request is 422.

#include <gtest/gtest.h>

#include <unistd.h>

#include <array>
#include <atomic>
#include <barrier>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <boost/json.hpp>

#include "support/checks.hpp"
#include "support/cli_runner.hpp"
#include "support/http_client.hpp"
#include "support/postgres_instance.hpp"
#include "support/redis_instance.hpp"
#include "support/server_process.hpp"
#include "support/webhook_receiver.hpp"

namespace leadline_test {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;

constexpr const char* kBase = "/api/v1/external";

class MultiInstanceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_url_ = fresh_postgres_database();
    redis_ = std::make_unique<RedisInstance>();
    workspace_ = str(as_obj(cli({"workspaces", "create", "--name", "Multi"})).at("id"));
    json::object key = as_obj(cli(
        {"keys", "create", "--workspace", workspace_, "--name", "k", "--scopes", "read,write"}));
    key_id_ = str(key.at("id"));
    key_ = str(key.at("key"));
    for (int i = 0; i < 2; ++i) {
      ServerOptions options;
      options.db_url = db_url_;
      options.extra_args = {"--rate-limit", "10/5s", "--redis", redis_->url()};
      servers_.push_back(std::make_unique<ServerProcess>(options));
      clients_.push_back(
          std::make_unique<HttpClient>(servers_.back()->host(), servers_.back()->port()));
    }
  }

  json::value cli(std::vector<std::string> args) {
    args.push_back("--db");
    args.push_back(db_url_);
    return run_cli_json(std::move(args));
  }

  HttpResponse send(int instance, std::string_view method, const std::string& path,
                    std::optional<std::string> body = std::nullopt) {
    return clients_[instance]->request(method, std::string(kBase) + path, std::move(body),
                                       {{"Authorization", "Bearer " + key_}});
  }

  std::string db_url_;
  std::unique_ptr<RedisInstance> redis_;
  std::string workspace_;
  std::string key_id_;
  std::string key_;
  std::vector<std::unique_ptr<ServerProcess>> servers_;
  std::vector<std::unique_ptr<HttpClient>> clients_;
};

TEST_F(MultiInstanceTest, TheRateLimitIsExactAcrossInstances) {
  int ok = 0;
  int limited = 0;
  for (int i = 0; i < 16; ++i) {
    HttpResponse r = send(i % 2, "GET", "/leads");
    if (r.status == 200) {
      ++ok;
    } else if (r.status == 429) {
      ++limited;
      EXPECT_FALSE(r.header("Retry-After").empty()) << r.describe();
    } else {
      ADD_FAILURE() << "request " << i << " at instance " << i % 2 << ":\n" << r.describe();
    }
  }
  EXPECT_EQ(ok, 10);
  EXPECT_EQ(limited, 6);
}

TEST_F(MultiInstanceTest, AWriteThroughOneInstanceIsReadThroughTheOther) {
  HttpResponse created =
      send(0, "POST", "/contacts", R"({"first_name":"Ana","email":"Ana@Example.com"})");
  ASSERT_STATUS(created, 201u);
  std::string id = str(as_obj(created.data()).at("id"));

  HttpResponse read = send(1, "GET", "/contacts?id=" + id);
  ASSERT_STATUS(read, 200u);
  EXPECT_EQ(as_obj(read.data()).at("email"), "Ana@Example.com");

  // E-mail de-duplication is decided by the one database, whichever instance is asked.
  HttpResponse again =
      send(1, "POST", "/contacts", R"({"first_name":"B","email":"ana@example.COM"})");
  ASSERT_STATUS(again, 409u);
  EXPECT_EQ(str(as_obj(again.data()).at("id")), id);

  HttpResponse patched = send(1, "PATCH", "/contacts?id=" + id, R"({"company_name":"Acme"})");
  ASSERT_STATUS(patched, 200u);
  HttpResponse seen = send(0, "GET", "/contacts?id=" + id);
  ASSERT_STATUS(seen, 200u);
  EXPECT_EQ(as_obj(seen.data()).at("company_name"), "Acme");
}

// An instance keeps the lead pages it read (PostgreSQL, docs/design.md "Page cache"): writes
// through the other instance show on its next read all the same. Ten requests, the rate limit.
TEST_F(MultiInstanceTest, ALeadPageKeptByOneInstanceShowsTheOthersWritesOnItsNextRead) {
  HttpResponse created = send(1, "POST", "/leads", R"({"visitor_name":"Ada"})");
  ASSERT_STATUS(created, 201u);
  const std::string id = str(as_obj(created.data()).at("id"));
  const auto first_name = [](const HttpResponse& r) -> std::string {
    const json::array& items = r.data().as_array();
    return items.empty() ? "(none)" : str(items.front().as_object().at("visitor_name"));
  };
  for (const char* path : {"/leads", "/leads?search=ada"}) {
    SCOPED_TRACE(path);
    ASSERT_STATUS(send(0, "GET", path), 200u);
    const HttpResponse kept = send(0, "GET", path);
    ASSERT_STATUS(kept, 200u);
    EXPECT_EQ(first_name(kept), "Ada");
  }
  ASSERT_STATUS(send(1, "PATCH", "/leads?id=" + id, R"({"visitor_name":"Ada Lovelace"})"), 200u);
  for (const char* path : {"/leads", "/leads?search=ada"}) {
    SCOPED_TRACE(path);
    const HttpResponse read = send(0, "GET", path);
    ASSERT_STATUS(read, 200u);
    EXPECT_EQ(first_name(read), "Ada Lovelace");
  }
  ASSERT_STATUS(send(1, "DELETE", "/leads?id=" + id), 200u);
  const HttpResponse gone = send(0, "GET", "/leads");
  ASSERT_STATUS(gone, 200u);
  EXPECT_EQ(total_count(gone), 0);
  EXPECT_EQ(first_name(gone), "(none)");
}

TEST_F(MultiInstanceTest, ARevocationStopsTheKeyAtEveryInstanceOnItsNextRequest) {
  ASSERT_STATUS(send(0, "GET", "/leads"), 200u);
  ASSERT_STATUS(send(1, "GET", "/leads"), 200u);
  cli({"keys", "revoke", "--id", key_id_});
  EXPECT_STATUS(send(0, "GET", "/leads"), 401u);
  EXPECT_STATUS(send(1, "GET", "/leads"), 401u);
}

TEST_F(MultiInstanceTest, UsageFromEveryInstanceAddsUp) {
  for (int i = 0; i < 3; ++i) ASSERT_STATUS(send(0, "GET", "/leads"), 200u);
  for (int i = 0; i < 4; ++i) ASSERT_STATUS(send(1, "GET", "/contacts"), 200u);
  // Each instance flushes its counters every second; wait for both flushes.
  json::object usage;
  auto deadline = std::chrono::steady_clock::now() + 6s;
  do {
    usage = as_obj(cli({"keys", "usage", "--id", key_id_}));
    if (usage.at("today") == 7) break;
    std::this_thread::sleep_for(200ms);
  } while (std::chrono::steady_clock::now() < deadline);
  EXPECT_EQ(usage.at("today"), 7) << json::serialize(usage);
  const json::object& by_endpoint = as_obj(usage.at("by_endpoint"));
  EXPECT_EQ(by_endpoint.at("GET /leads"), 3) << json::serialize(usage);
  EXPECT_EQ(by_endpoint.at("GET /contacts"), 4) << json::serialize(usage);
}

TEST_F(MultiInstanceTest, WhileRedisIsDownBothInstancesFailClosedAndRecoverAfter) {
  ASSERT_STATUS(send(0, "GET", "/leads"), 200u);
  redis_->stop();
  for (int i = 0; i < 2; ++i) {
    HttpResponse r = send(i, "GET", "/leads");
    EXPECT_STATUS(r, 503u);
    EXPECT_FALSE(r.header("Retry-After").empty()) << r.describe();
  }
  redis_->start();
  // Each instance retries Redis at most every ~100 ms after a failure.
  for (int i = 0; i < 2; ++i) {
    HttpResponse r;
    auto deadline = std::chrono::steady_clock::now() + 3s;
    do {
      r = send(i, "GET", "/leads");
      if (r.status == 200) break;
      std::this_thread::sleep_for(100ms);
    } while (std::chrono::steady_clock::now() < deadline);
    EXPECT_STATUS(r, 200u);
  }
}

// A database outage: a server of its own that the test halts and resumes under both instances.
TEST(DatabaseOutageTest, AnUnreachableDatabaseIs503AndServiceResumesWhenItIsBack) {
  PostgresServer postgres;
  const std::string db_url = create_postgres_database(postgres.url());
  std::string workspace = str(
      as_obj(run_cli_json({"workspaces", "create", "--name", "Outage", "--db", db_url})).at("id"));
  std::string key = str(as_obj(run_cli_json({"keys", "create", "--workspace", workspace, "--name",
                                             "k", "--scopes", "read,write", "--db", db_url}))
                            .at("key"));
  ServerOptions options;
  options.db_url = db_url;
  options.extra_args = {"--rate-limit", "1000000/60s"};
  ServerProcess server(options);
  HttpClient client(server.host(), server.port());
  const Headers auth = {{"Authorization", "Bearer " + key}};
  const std::string leads = std::string(kBase) + "/leads";
  ASSERT_STATUS(client.request("GET", leads, std::nullopt, auth), 200u);

  postgres.halt();
  for (const char* method : {"GET", "POST"}) {
    HttpResponse r = client.request(method, leads,
                                    std::string_view(method) == "POST"
                                        ? std::optional<std::string>(R"({"visitor_name":"X"})")
                                        : std::nullopt,
                                    auth);
    EXPECT_STATUS(r, 503u);
    const std::string id = r.header("X-Request-Id");
    EXPECT_EQ(str(r.object().at("error")),
              "database unavailable (request id " + id + "); retry shortly")
        << r.describe();
    EXPECT_EQ(r.header("Retry-After"), "1");
  }
  EXPECT_TRUE(server.running());

  postgres.resume();
  HttpResponse after;
  auto deadline = std::chrono::steady_clock::now() + 5s;
  do {
    after = client.request("GET", leads, std::nullopt, auth);
    if (after.status == 200) break;
    std::this_thread::sleep_for(100ms);
  } while (std::chrono::steady_clock::now() < deadline);
  ASSERT_STATUS(after, 200u);
  // The create refused during the outage left nothing behind.
  EXPECT_EQ(total_count(after), 0);
}

// The local ports of the TCP sockets that process `pid` holds (from /proc: its descriptors'
// socket inodes, looked up in /proc/net/tcp and tcp6).
std::set<unsigned short> tcp_ports_of(pid_t pid) {
  namespace fs = std::filesystem;
  std::set<std::string> inodes;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/proc/" + std::to_string(pid) + "/fd", ec)) {
    std::error_code link_ec;
    const std::string target = fs::read_symlink(entry.path(), link_ec).string();
    if (!link_ec && target.starts_with("socket:[") && target.ends_with("]")) {
      inodes.insert(target.substr(8, target.size() - 9));
    }
  }
  std::set<unsigned short> ports;
  for (const char* table : {"/proc/net/tcp", "/proc/net/tcp6"}) {
    std::ifstream in(table);
    std::string line;
    std::getline(in, line);  // the heading
    while (std::getline(in, line)) {
      std::istringstream fields(line);
      std::string slot, local, remote, state, queues, timer, retransmits, uid, timeout, inode;
      fields >> slot >> local >> remote >> state >> queues >> timer >> retransmits >> uid >>
          timeout >> inode;
      const auto colon = local.rfind(':');
      if (colon == std::string::npos || inodes.count(inode) == 0) continue;
      ports.insert(static_cast<unsigned short>(std::stoul(local.substr(colon + 1), nullptr, 16)));
    }
  }
  return ports;
}

// Two instances deliver the webhooks of one database: each delivery is attempted by one
// instance at a time (FOR UPDATE SKIP LOCKED), so without faults every event arrives once.
TEST(MultiInstanceWebhooksTest, BothInstancesDeliverAndEachEventArrivesExactlyOnce) {
  constexpr int kLeads = 300;
  constexpr int kWritersPerInstance = 3;
  const std::string db_url = fresh_postgres_database();
  std::string workspace = str(
      as_obj(run_cli_json({"workspaces", "create", "--name", "Hooks", "--db", db_url})).at("id"));
  const std::string key =
      str(as_obj(run_cli_json({"keys", "create", "--workspace", workspace, "--name", "k",
                               "--scopes", "read,write", "--db", db_url}))
              .at("key"));
  const Headers auth = {{"Authorization", "Bearer " + key}};
  // Answers wait up to 5 ms, so that attempts overlap and both instances' workers are busy.
  WebhookReceiver receiver(2);
  receiver.set_random_delay(5ms);
  std::vector<std::unique_ptr<ServerProcess>> servers;
  for (int i = 0; i < 2; ++i) {
    ServerOptions options;
    options.db_url = db_url;
    options.extra_args = {"--rate-limit",
                          "1000000/60s",
                          "--webhook-allow-private",
                          "127.0.0.0/8",
                          "--webhook-allow-http",
                          "--webhook-timeout",
                          "5s",
                          "--webhook-retry-schedule",
                          "200ms,400ms,800ms"};
    servers.push_back(std::make_unique<ServerProcess>(options));
  }
  HttpClient admin(servers[0]->host(), servers[0]->port());
  ASSERT_STATUS(admin.request("POST", std::string(kBase) + "/webhooks",
                              json::serialize(json::object{{"url", receiver.url()}}), auth),
                201u);

  // kLeads creates, spread over both instances by a few writers each.
  std::atomic<int> next{0};
  std::atomic<int> refused{0};
  std::vector<std::thread> writers;
  for (int w = 0; w < 2 * kWritersPerInstance; ++w) {
    writers.emplace_back([&, instance = w % 2] {
      HttpClient client(servers[instance]->host(), servers[instance]->port());
      for (int n = next++; n < kLeads; n = next++) {
        json::object lead{{"visitor_name", "hook-" + std::to_string(n)}};
        HttpResponse r =
            client.request("POST", std::string(kBase) + "/leads", json::serialize(lead), auth);
        if (r.status != 201) ++refused;
      }
    });
  }
  for (auto& t : writers) t.join();
  ASSERT_EQ(refused.load(), 0);

  // Until every delivery succeeded (bounded).
  auto count_of = [&](const std::string& query) {
    HttpResponse r = admin.request(
        "GET", std::string(kBase) + "/webhook-deliveries?limit=1&" + query, std::nullopt, auth);
    return r.status == 200 ? total_count(r) : std::int64_t{-1};
  };
  const auto started = std::chrono::steady_clock::now();
  std::int64_t succeeded = 0;
  do {
    succeeded = count_of("status=succeeded");
    if (succeeded >= kLeads && receiver.count() >= static_cast<std::size_t>(kLeads)) break;
    std::this_thread::sleep_for(100ms);
  } while (std::chrono::steady_clock::now() - started < 30s);
  const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - started);
  EXPECT_EQ(succeeded, kLeads) << "deliveries succeeded within 30 s";
  EXPECT_EQ(count_of("status=pending"), 0);
  EXPECT_EQ(count_of("status=failed"), 0);
  // A moment longer: a second attempt of some delivery would arrive now.
  std::this_thread::sleep_for(300ms);

  // The feed, followed with `after`: every event once. A read may stop short of the last events
  // for a moment while a transaction of another database on the test server ends
  // (docs/webhooks.md: delayed, never reordered), so it is read again until it holds them all.
  std::vector<std::string> feed;
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  do {
    feed.clear();
    for (std::string after;;) {
      HttpResponse r = admin.request(
          "GET",
          std::string(kBase) + "/events?limit=100" + (after.empty() ? "" : "&after=" + after),
          std::nullopt, auth);
      ASSERT_STATUS(r, 200u);
      if (r.data().as_array().empty()) break;
      for (const auto& e : r.data().as_array()) feed.push_back(after = str(e.at("id")));
    }
  } while (feed.size() < static_cast<std::size_t>(kLeads) &&
           std::chrono::steady_clock::now() < deadline);
  ASSERT_EQ(feed.size(), static_cast<std::size_t>(kLeads));

  const std::vector<ReceivedRequest> received = receiver.requests();
  std::map<std::string, int> arrivals;
  std::map<unsigned short, int> by_peer_port;
  for (const auto& r : received) {
    ++arrivals[r.webhook_id()];
    ++by_peer_port[r.peer_port];
  }
  for (const auto& id : feed) {
    auto it = arrivals.find(id);
    if (it == arrivals.end()) {
      ADD_FAILURE() << "event " << id << " never arrived";
    } else if (it->second != 1) {
      ADD_FAILURE() << "event " << id << " arrived " << it->second << " times";
    }
  }
  EXPECT_EQ(received.size(), feed.size()) << "requests at the receiver";

  // Which instance sent what: the connections' ports, looked up among each process's sockets
  // (the delivery workers keep their connections alive, so they are still open).
  int per_instance[2] = {0, 0};
  int unknown = 0;
  const std::set<unsigned short> ports[2] = {tcp_ports_of(servers[0]->pid()),
                                             tcp_ports_of(servers[1]->pid())};
  for (const auto& [port, n] : by_peer_port) {
    if (ports[0].count(port) != 0) {
      per_instance[0] += n;
    } else if (ports[1].count(port) != 0) {
      per_instance[1] += n;
    } else {
      unknown += n;
    }
  }
  std::cout << "[multi] " << kLeads << " events delivered within " << waited.count() << " ms over "
            << receiver.connections() << " connections: " << per_instance[0] << " by instance 1, "
            << per_instance[1] << " by instance 2, " << unknown
            << " on connections already closed\n";
  EXPECT_GT(per_instance[0], 0) << "instance 1 delivered nothing";
  EXPECT_GT(per_instance[1], 0) << "instance 2 delivered nothing";
}

// --- Idempotency-Key across instances ---------------------------------------------------------
// Two instances on one PostgreSQL database, no Redis, a limit out of reach: the key's record in
// the shared database decides, whichever instance a request reaches.

constexpr const char* kInProgress = "A request with this Idempotency-Key is still in progress";
constexpr const char* kReusedKey = "Idempotency-Key was already used with a different request";

class MultiInstanceIdempotencyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_url_ = fresh_postgres_database();
    workspace_ = str(
        as_obj(run_cli_json({"workspaces", "create", "--name", "Idem", "--db", db_url_})).at("id"));
    key_ = new_api_key("k");
    for (int i = 0; i < 2; ++i) {
      ServerOptions options;
      options.db_url = db_url_;
      options.extra_args = {"--rate-limit", "1000000/60s"};
      servers_.push_back(std::make_unique<ServerProcess>(options));
    }
  }

  std::string new_api_key(const std::string& name) {
    return str(as_obj(run_cli_json({"keys", "create", "--workspace", workspace_, "--name", name,
                                    "--scopes", "read,write", "--db", db_url_}))
                   .at("key"));
  }

  std::unique_ptr<HttpClient> client_of(int instance) {
    auto c = std::make_unique<HttpClient>(servers_[instance]->host(), servers_[instance]->port());
    c->connect();
    return c;
  }

  static HttpResponse post(HttpClient& client, const std::string& path, const std::string& body,
                           const std::string& idempotency_key, const std::string& api_key) {
    return client.request(
        "POST", std::string(kBase) + path, body,
        {{"Authorization", "Bearer " + api_key}, {"Idempotency-Key", idempotency_key}});
  }
  HttpResponse post(HttpClient& client, const std::string& path, const std::string& body,
                    const std::string& idempotency_key) {
    return post(client, path, body, idempotency_key, key_);
  }

  // visitor_name -> leads listed with it (every page).
  std::map<std::string, int> leads_by_name() {
    HttpClient client(servers_[0]->host(), servers_[0]->port());
    std::map<std::string, int> n;
    std::string cursor;
    for (int page = 0; page < 10'000; ++page) {
      HttpResponse r = client.request(
          "GET",
          std::string(kBase) + "/leads?limit=100" + (cursor.empty() ? "" : "&cursor=" + cursor),
          std::nullopt, {{"Authorization", "Bearer " + key_}});
      if (r.status != 200) {
        ADD_FAILURE() << r.describe();
        break;
      }
      for (const auto& item : r.data().as_array()) ++n[str(item.at("visitor_name"))];
      const json::object& pagination = as_obj(r.object().at("pagination"));
      if (!pagination.at("has_more").as_bool()) break;
      cursor = url_encode(str(pagination.at("next_cursor")));
    }
    return n;
  }

  std::string db_url_;
  std::string workspace_;
  std::string key_;
  std::vector<std::unique_ptr<ServerProcess>> servers_;
};

bool replayed(const HttpResponse& r) {
  return r.header("Idempotent-Replayed") == "true";
}

std::string error_of(const HttpResponse& r) {
  const json::value* e =
      r.json && r.json->is_object() ? r.json->as_object().if_contains("error") : nullptr;
  return e != nullptr && e->is_string() ? std::string(e->get_string()) : std::string();
}

TEST_F(MultiInstanceIdempotencyTest, OneKeySentToBothInstancesAtOnceCreatesOneRecord) {
  constexpr int kRounds = 50;
  const std::string run = std::to_string(::getpid()) + "-" + std::to_string(now_millis());
  std::vector<std::string> keys;
  std::vector<std::string> bodies;
  for (int i = 0; i < kRounds; ++i) {
    keys.push_back("race-" + run + "-" + std::to_string(i));
    bodies.push_back(json::serialize(json::object{{"visitor_name", keys.back()},
                                                  {"need_summary", "round " + std::to_string(i)}}));
  }
  // answers[round][instance]; a transport failure leaves status 0.
  std::vector<std::array<HttpResponse, 2>> answers(kRounds);
  std::barrier both(2);
  const auto started = std::chrono::steady_clock::now();
  std::vector<std::thread> sides;
  for (int instance = 0; instance < 2; ++instance) {
    sides.emplace_back([&, instance] {
      std::unique_ptr<HttpClient> client = client_of(instance);
      for (int i = 0; i < kRounds; ++i) {
        both.arrive_and_wait();  // released together
        try {
          answers[i][instance] = post(*client, "/leads", bodies[i], keys[i]);
        } catch (const std::exception& e) {
          answers[i][instance].body = e.what();
        }
      }
    });
  }
  for (auto& t : sides) t.join();
  const auto raced = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - started);

  int both_201 = 0;
  int one_409 = 0;
  std::vector<std::string> created_body(kRounds);
  for (int i = 0; i < kRounds; ++i) {
    SCOPED_TRACE("round " + std::to_string(i) + ", key " + keys[i]);
    int fresh = 0;
    int conflicts = 0;
    for (int instance = 0; instance < 2; ++instance) {
      const HttpResponse& r = answers[i][instance];
      if (r.status == 201) {
        fresh += replayed(r) ? 0 : 1;
        if (created_body[i].empty()) {
          created_body[i] = r.body;
        } else {
          EXPECT_EQ(r.body, created_body[i]) << "the two 201s of one key differ";
        }
      } else if (r.status == 409) {
        ++conflicts;
        EXPECT_EQ(r.header("Retry-After"), "1") << "instance " << instance << ":\n" << r.describe();
        EXPECT_EQ(error_of(r), kInProgress) << "instance " << instance << ":\n" << r.describe();
      } else {
        ADD_FAILURE() << "instance " << instance << " answered neither 201 nor 409:\n"
                      << r.describe();
      }
    }
    // Exactly one of the two ran the create; the other replayed it or found it running.
    EXPECT_EQ(fresh, 1) << "201s not marked Idempotent-Replayed\ninstance 1:\n"
                        << answers[i][0].describe() << "\ninstance 2:\n"
                        << answers[i][1].describe();
    both_201 += conflicts == 0 ? 1 : 0;
    one_409 += conflicts == 1 ? 1 : 0;
  }

  // Once both are done, each instance replays the 201.
  for (int instance = 0; instance < 2; ++instance) {
    std::unique_ptr<HttpClient> client = client_of(instance);
    for (int i = 0; i < kRounds; ++i) {
      HttpResponse r = post(*client, "/leads", bodies[i], keys[i]);
      EXPECT_EQ(r.status, 201u) << "retry of " << keys[i] << " at instance " << instance + 1
                                << ":\n"
                                << r.describe();
      EXPECT_TRUE(replayed(r)) << "retry of " << keys[i] << " at instance " << instance + 1 << ":\n"
                               << r.describe();
      if (!created_body[i].empty()) {
        EXPECT_EQ(r.body, created_body[i])
            << "retry of " << keys[i] << " at instance " << instance + 1;
      }
    }
  }

  const std::map<std::string, int> leads = leads_by_name();
  for (const auto& key : keys) {
    auto it = leads.find(key);
    EXPECT_EQ(it == leads.end() ? 0 : it->second, 1) << "leads named " << key;
  }
  EXPECT_EQ(leads.size(), keys.size()) << "leads of no key of this test";
  std::cout << "[multi] " << kRounds << " keys sent to both instances at once in " << raced.count()
            << " ms: " << both_201 << " rounds answered 201 at both instances, " << one_409
            << " answered 201 and 409\n";
}

TEST_F(MultiInstanceIdempotencyTest, AKeyReusedForAnotherRequestAtTheOtherInstanceIs422) {
  std::unique_ptr<HttpClient> a = client_of(0);
  std::unique_ptr<HttpClient> b = client_of(1);
  const std::string key = "reuse-" + std::to_string(now_millis());
  const std::string body = R"({"visitor_name":"Reuse","need_summary":"first"})";
  HttpResponse first = post(*a, "/leads", body, key);
  ASSERT_STATUS(first, 201u);
  EXPECT_FALSE(replayed(first)) << first.describe();

  // Another body, another path: refused at the other instance, nothing created.
  for (const auto& [path, other] :
       {std::pair<std::string, std::string>{"/leads",
                                            R"({"visitor_name":"Reuse","need_summary":"second"})"},
        {"/contacts", R"({"first_name":"Reuse","email":"reuse@example.com"})"}}) {
    HttpResponse r = post(*b, path, other, key);
    EXPECT_STATUS(r, 422u);
    EXPECT_EQ(error_of(r), kReusedKey) << "POST " << path << ":\n" << r.describe();
    EXPECT_FALSE(replayed(r)) << r.describe();
  }

  // The same JSON value written otherwise (spacing, member order) is the same request.
  HttpResponse same =
      post(*b, "/leads", R"({ "need_summary" : "first", "visitor_name" : "Reuse" })", key);
  EXPECT_STATUS(same, 201u);
  EXPECT_TRUE(replayed(same)) << same.describe();
  EXPECT_EQ(same.body, first.body);

  // Keys belong to an API key: another API key's use of the same value is a request of its own.
  HttpResponse other_key = post(*b, "/leads", body, key, new_api_key("second"));
  EXPECT_STATUS(other_key, 201u);
  EXPECT_FALSE(replayed(other_key)) << other_key.describe();

  std::map<std::string, int> leads = leads_by_name();
  EXPECT_EQ(leads["Reuse"], 2) << "one lead per API key";
  HttpResponse contacts = a->request("GET", std::string(kBase) + "/contacts", std::nullopt,
                                     {{"Authorization", "Bearer " + key_}});
  ASSERT_STATUS(contacts, 200u);
  EXPECT_EQ(total_count(contacts), 0) << "the refused POST /contacts created a contact";
}

}  // namespace
}  // namespace leadline_test
