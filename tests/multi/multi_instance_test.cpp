// Several `leadline serve` processes behind one address: one PostgreSQL database and one Redis
// shared by two instances on loopback. The rate limit is exact in total, a revocation counts at
// every instance on its next request, usage adds up, and a write through one instance is read
// through the other. And an unreachable database is a 503 until it is back.

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
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

}  // namespace
}  // namespace leadline_test
