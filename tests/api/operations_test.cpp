// The admin listener (--admin-listen) and the request log (--log-format json), black-box
// against the real binary: /healthz, /readyz (ready, and 503 once the database is gone),
// /metrics in a well-formed Prometheus text format counting the requests made, and one JSON log
// line per request with the route template, the key's id (never the key) and its workspace.

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <thread>

#include "support/fixture.hpp"
#include "support/postgres_instance.hpp"
#include "support/process.hpp"
#include "support/prometheus_text.hpp"
#include "support/redis_instance.hpp"
#include "support/test_backend.hpp"

namespace leadline_test {
namespace {

// The port of the "admin listening on HOST:PORT" line.
unsigned short admin_port(const ServerProcess& server) {
  const std::string out = server.output();
  const std::string marker = "admin listening on 127.0.0.1:";
  const auto at = out.find(marker);
  if (at == std::string::npos) throw std::runtime_error("no admin listening line in:\n" + out);
  return static_cast<unsigned short>(std::stoi(out.substr(at + marker.size())));
}

HttpResponse admin_get(const ServerProcess& server, const std::string& path) {
  HttpClient admin("127.0.0.1", admin_port(server));
  // The admin listener is not the API the OpenAPI document describes.
  admin.contract_checked = false;
  return admin.request("GET", path);
}

PromPage scrape(const ServerProcess& server) {
  const HttpResponse r = admin_get(server, "/metrics");
  EXPECT_EQ(r.status, 200u) << r.describe();
  EXPECT_NE(r.header("Content-Type").find("text/plain; version=0.0.4"), std::string::npos);
  std::string error;
  auto page = parse_prometheus(r.body, error);
  if (!page) throw std::runtime_error("malformed /metrics (" + error + "):\n" + r.body);
  return *page;
}

// The server's log lines that parse as JSON objects and have this request id.
std::optional<json::object> log_line(const ServerProcess& server, const std::string& request_id,
                                     const std::string& msg) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::istringstream lines(server.output());
    for (std::string line; std::getline(lines, line);) {
      if (line.find(request_id) == std::string::npos) continue;
      auto value = parse_json(line);
      if (!value || !value->is_object()) continue;
      const auto& object = value->as_object();
      if (object.contains("msg") && object.at("msg") == msg.c_str()) return object;
    }
    std::this_thread::sleep_for(20ms);
  }
  return std::nullopt;
}

class OperationsTest : public ApiTest {
 public:
  static void SetUpTestSuite() {
    start_suite_server(
        {"--rate-limit", "1000000/60s", "--admin-listen", "127.0.0.1:0", "--log-format", "json"});
  }
};

TEST_F(OperationsTest, AnnouncesTheAdminAddressAfterTheApiAddress) {
  const std::string out = server().output();
  const auto api = out.find("leadline listening on 127.0.0.1:");
  const auto admin = out.find("admin listening on 127.0.0.1:");
  ASSERT_NE(admin, std::string::npos) << out;
  EXPECT_LT(api, admin) << out;
  EXPECT_NE(admin_port(server()), server().port());
}

TEST_F(OperationsTest, HealthzAnswersOk) {
  const HttpResponse r = admin_get(server(), "/healthz");
  EXPECT_EQ(r.status, 200u) << r.describe();
  ASSERT_TRUE(r.json) << r.describe();
  EXPECT_EQ(r.json->at("status"), "ok");
}

TEST_F(OperationsTest, ReadyzChecksTheDatabaseAndSaysRedisIsNotConfigured) {
  const HttpResponse r = admin_get(server(), "/readyz");
  EXPECT_EQ(r.status, 200u) << r.describe();
  ASSERT_TRUE(r.json) << r.describe();
  EXPECT_EQ(r.json->at("status"), "ready");
  EXPECT_EQ(r.json->at("checks").at("database"), "ok");
  EXPECT_EQ(r.json->at("checks").at("redis"), "not configured");
}

TEST_F(OperationsTest, AdminListenerServesNothingElseAndTheApiPortNoAdminPaths) {
  EXPECT_EQ(admin_get(server(), "/api/v1/external/leads").status, 404u);
  EXPECT_EQ(client().request("GET", "/metrics").status, 404u);
}

TEST_F(OperationsTest, MetricsCountTheRequestsMadeAndAreWellFormed) {
  const std::map<std::string, std::string> leads_ok = {
      {"route", "/api/v1/external/leads"}, {"method", "GET"}, {"status_class", "2xx"}};
  const std::map<std::string, std::string> unknown = {
      {"route", "none"}, {"method", "GET"}, {"status_class", "4xx"}};
  const PromPage before = scrape(server());
  for (int i = 0; i < 3; ++i) EXPECT_EQ(get("/leads?limit=1").status, 200u);
  EXPECT_EQ(get("/no/such/path").status, 404u);
  const PromPage after = scrape(server());

  EXPECT_EQ(after.value("leadline_http_requests_total", leads_ok).value_or(0) -
                before.value("leadline_http_requests_total", leads_ok).value_or(0),
            3.0);
  EXPECT_EQ(after.value("leadline_http_requests_total", unknown).value_or(0) -
                before.value("leadline_http_requests_total", unknown).value_or(0),
            1.0);
  const auto count = after.value("leadline_http_request_duration_seconds_count",
                                 {{"route", "/api/v1/external/leads"}});
  ASSERT_TRUE(count.has_value());
  EXPECT_GE(*count, 3.0);
  EXPECT_TRUE(after.value("leadline_http_request_duration_seconds_bucket",
                          {{"route", "/api/v1/external/leads"}, {"le", "0.0005"}}));
  EXPECT_EQ(after.types.at("leadline_http_requests_total"), "counter");
  EXPECT_EQ(after.types.at("leadline_http_request_duration_seconds"), "histogram");
  EXPECT_EQ(after.types.at("leadline_http_requests_in_flight"), "gauge");
  EXPECT_EQ(after.types.at("leadline_rate_limited_total"), "counter");
  EXPECT_EQ(after.types.at("leadline_db_query_duration_seconds"), "histogram");
  EXPECT_EQ(after.types.at("leadline_usage_flush_lag_seconds"), "gauge");
  EXPECT_TRUE(
      after.value("leadline_db_query_duration_seconds_count", {{"operation", "list_leads"}}));
  EXPECT_TRUE(
      after.value("leadline_db_query_duration_seconds_count", {{"operation", "find_key_by_hash"}}));
  // Only the PostgreSQL pool counts its connections.
  if (test_backend() == Backend::kPostgres) {
    EXPECT_EQ(after.types.at("leadline_db_pool_connections"), "gauge");
    EXPECT_TRUE(after.value("leadline_db_pool_connections", {{"state", "idle"}}));
    EXPECT_TRUE(after.value("leadline_db_pool_connections", {{"state", "in_use"}}));
  } else {
    EXPECT_EQ(after.types.count("leadline_db_pool_connections"), 0u);
  }
  // Flushed every second: the lag stays small while the database answers.
  EXPECT_LT(after.value("leadline_usage_flush_lag_seconds").value_or(99), 10.0);
}

// Prometheus' own checker (promtool from Debian's prometheus package, which `make test-deps`
// unpacks into tools/bin) parses and lints the page after every kind of request was counted.
TEST_F(OperationsTest, MetricsPassPromtoolCheck) {
  EXPECT_EQ(get("/leads?limit=1").status, 200u);
  EXPECT_EQ(get("/leads?limit=0").status, 400u);
  EXPECT_EQ(get("/no/such/path").status, 404u);
  EXPECT_EQ(get("/leads", "").status, 401u);
  HttpClient docs("127.0.0.1", server().port());
  docs.contract_checked = false;
  EXPECT_EQ(docs.request("GET", "/docs").status, 200u);
  const HttpResponse page = admin_get(server(), "/metrics");
  ASSERT_EQ(page.status, 200u);
  ASSERT_TRUE(std::filesystem::exists(promtool_binary()))
      << promtool_binary() << " is missing: `make test-deps` unpacks it";
  CliOptions input;
  input.stdin_data = page.body;
  const CliResult check = run_program(promtool_binary(), {"check", "metrics"}, input);
  EXPECT_EQ(check.exit_code, 0) << check.describe();
}

TEST_F(OperationsTest, EachRequestIsOneJsonLogLineWithoutTheKeyOrTheRawPath) {
  const std::string lead_id =
      create_lead(json::object{{"visitor_name", "Logged Lead"}}).at("id").as_string().c_str();
  const std::string request_id = "logtest-" + lead_id;
  const HttpResponse r =
      send("GET", "/leads?id=" + lead_id, std::nullopt, {{"X-Request-Id", request_id}});
  ASSERT_EQ(r.status, 200u) << r.describe();

  const auto line = log_line(server(), request_id, "request");
  ASSERT_TRUE(line) << server().output();
  EXPECT_EQ(line->at("level"), "info");
  EXPECT_EQ(line->at("method"), "GET");
  EXPECT_EQ(line->at("route"), "/api/v1/external/leads");
  EXPECT_EQ(line->at("status"), 200);
  EXPECT_TRUE(line->at("duration_ms").is_number());
  EXPECT_GE(line->at("duration_ms").to_number<double>(), 0.0);
  EXPECT_EQ(line->at("key_id"), ws_.rw.id.c_str());
  EXPECT_EQ(line->at("workspace_id"), ws_.id.c_str());
  EXPECT_EQ(line->at("client_ip"), "127.0.0.1");
  EXPECT_EQ(line->at("bytes"), static_cast<std::int64_t>(r.body.size()));
  const std::string time = line->at("time").as_string().c_str();
  EXPECT_EQ(time.size(), 24u) << time;  // 2026-11-26T06:00:00.123Z
  EXPECT_EQ(time.back(), 'Z');

  // Nowhere in the log: the key itself, or the id-bearing query of a request.
  const std::string out = server().output();
  EXPECT_EQ(out.find(ws_.rw.key), std::string::npos);
  EXPECT_EQ(out.find("?id=" + lead_id), std::string::npos);
}

TEST_F(OperationsTest, UnauthenticatedRequestsAreLoggedWithoutKeyOrWorkspace) {
  const HttpResponse r = send("GET", "/contacts", std::nullopt,
                              {{"X-Request-Id", "logtest-anonymous"}}, std::string());
  ASSERT_EQ(r.status, 401u);
  const auto line = log_line(server(), "logtest-anonymous", "request");
  ASSERT_TRUE(line) << server().output();
  EXPECT_EQ(line->at("status"), 401);
  EXPECT_EQ(line->at("route"), "/api/v1/external/contacts");
  EXPECT_EQ(line->at("key_id"), "");
  EXPECT_EQ(line->at("workspace_id"), "");
}

// Its own servers, scraped before any request: the first requests find the pool's connections
// open (store::Engine::warm_up), not paying for them under load; --db-pool-size sets how many.
TEST(OperationsWarmUp, APostgresServerListensWithEveryPoolConnectionOpen) {
  if (test_backend() != Backend::kPostgres) GTEST_SKIP() << "SQLite keeps no connection pool";
  for (const std::optional<unsigned> size : {std::optional<unsigned>(), std::optional(3u)}) {
    ServerOptions options;
    options.extra_args = {"--admin-listen", "127.0.0.1:0"};
    options.db_pool_size = size;
    ServerProcess server(options);
    const PromPage page = scrape(server);
    const auto idle = page.value("leadline_db_pool_connections", {{"state", "idle"}});
    const auto in_use = page.value("leadline_db_pool_connections", {{"state", "in_use"}});
    ASSERT_TRUE(idle && in_use);
    EXPECT_EQ(*idle + *in_use, size ? *size : 16.0) << "--db-pool-size " << size.value_or(0);
  }
}

// Its own server: the database goes away under it and comes back.
TEST(OperationsReadiness, ReadyzIs503WhileTheDatabaseIsGone) {
  std::unique_ptr<PostgresServer> postgres;
  ServerOptions options;
  options.extra_args = {"--admin-listen", "127.0.0.1:0"};
  if (test_backend() == Backend::kPostgres) {
    postgres = std::make_unique<PostgresServer>();
    options.db_url = create_postgres_database(postgres->url());
  }
  ServerProcess server(options);
  ASSERT_EQ(admin_get(server, "/readyz").status, 200u);

  const std::filesystem::path file = server.db_file();
  const std::filesystem::path aside = file.string() + ".aside";
  if (postgres) {
    postgres->halt();
  } else {
    std::filesystem::rename(file, aside);
  }
  const HttpResponse gone = admin_get(server, "/readyz");
  EXPECT_EQ(gone.status, 503u) << gone.describe();
  ASSERT_TRUE(gone.json) << gone.describe();
  EXPECT_EQ(gone.json->at("status"), "not ready");
  EXPECT_EQ(gone.json->at("checks").at("database"), "unavailable");
  // Liveness is not readiness: the process still runs.
  EXPECT_EQ(admin_get(server, "/healthz").status, 200u);

  if (postgres) {
    postgres->resume();
  } else {
    std::filesystem::rename(aside, file);
  }
  EXPECT_EQ(admin_get(server, "/readyz").status, 200u);
}

// With --redis, readiness also needs Redis to answer PING.
TEST(OperationsReadiness, ReadyzChecksRedisWhenConfigured) {
  RedisInstance redis;  // declared first: the server stops before its Redis
  ServerOptions options;
  options.extra_args = {"--admin-listen", "127.0.0.1:0", "--redis", redis.url()};
  ServerProcess server(options);
  HttpResponse r = admin_get(server, "/readyz");
  EXPECT_EQ(r.status, 200u) << r.describe();
  ASSERT_TRUE(r.json) << r.describe();
  EXPECT_EQ(r.json->at("checks").at("redis"), "ok");

  redis.stop();
  r = admin_get(server, "/readyz");
  EXPECT_EQ(r.status, 503u) << r.describe();
  ASSERT_TRUE(r.json) << r.describe();
  EXPECT_EQ(r.json->at("checks").at("database"), "ok");
  EXPECT_EQ(
      std::string(r.json->at("checks").at("redis").as_string().c_str()).rfind("unavailable", 0), 0u)
      << r.describe();

  redis.start();
  const auto deadline = std::chrono::steady_clock::now() + 3s;
  do {
    r = admin_get(server, "/readyz");
    if (r.status == 200) break;
    std::this_thread::sleep_for(50ms);
  } while (std::chrono::steady_clock::now() < deadline);
  EXPECT_EQ(r.status, 200u) << r.describe();
}

}  // namespace
}  // namespace leadline_test
