// Rate limiting: per-key sliding window set by --rate-limit, the X-RateLimit-* and Retry-After
// headers, what counts (and what does not), check order around 429, exactness under concurrency.

#include <gtest/gtest.h>

#include <latch>
#include <string>
#include <thread>

#include "support/fixture.hpp"

namespace leadline_test {
namespace {

using Clock = std::chrono::steady_clock;

std::int64_t header_int(const HttpResponse& r, const char* name) {
  std::string v = r.header(name);
  if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos) {
    throw std::runtime_error(std::string(name) + " is not a non-negative integer\n" + r.describe());
  }
  return std::stoll(v);
}

std::int64_t unix_now() {
  return now_millis() / 1000;
}

// A server limited to 5 requests per 2 s that trusts X-Forwarded-For from loopback.
class RateLimitTest : public ApiTest {
 public:
  static void SetUpTestSuite() {
    start_suite_server({"--rate-limit", "5/2s", "--trust-proxy", "127.0.0.1/32"});
  }

 protected:
  HttpResponse get_from(const std::string& key, const std::string& xff) {
    return client().request("GET", std::string(kBase) + "/leads", std::nullopt,
                            {{"Authorization", "Bearer " + key}, {"X-Forwarded-For", xff}});
  }

  static void sleep_until(Clock::time_point t) { std::this_thread::sleep_until(t); }
};

TEST_F(RateLimitTest, RemainingCountsDownAndTheSixthRequestIs429) {
  for (int i = 0; i < 5; ++i) {
    SCOPED_TRACE(i);
    HttpResponse r = get("/leads");
    ASSERT_STATUS(r, 200u);
    ASSERT_TRUE(has_rate_limit_headers(r));
    EXPECT_EQ(header_int(r, "X-RateLimit-Limit"), 5);
    EXPECT_EQ(header_int(r, "X-RateLimit-Remaining"), 4 - i);
    std::int64_t reset = header_int(r, "X-RateLimit-Reset");
    EXPECT_GE(reset, unix_now());
    EXPECT_LE(reset, unix_now() + 3);
  }
  HttpResponse limited = get("/leads");
  EXPECT_TRUE(is_error(limited, 429));
  EXPECT_TRUE(has_json_content_type(limited));
  ASSERT_TRUE(has_rate_limit_headers(limited));
  EXPECT_EQ(header_int(limited, "X-RateLimit-Limit"), 5);
  EXPECT_EQ(header_int(limited, "X-RateLimit-Remaining"), 0);
  ASSERT_TRUE(limited.has_header("Retry-After")) << limited.describe();
  std::int64_t retry = header_int(limited, "Retry-After");
  EXPECT_GE(retry, 1);
  EXPECT_LE(retry, 2);
  // The sentence names the configured window (5/2s), not just "per window".
  EXPECT_EQ(str(limited.object().at("error")),
            "rate limit exceeded: at most 5 requests per 2 s for this API key; retry after " +
                std::to_string(retry) + " s");
  // Writes of the same key are limited too.
  EXPECT_TRUE(is_error(post("/leads", json::object{{"visitor_name", "A"}}), 429));
}

TEST_F(RateLimitTest, EachKeyHasItsOwnWindow) {
  for (int i = 0; i < 6; ++i) get("/leads");
  HttpResponse other = get("/leads", ws_ro().key);
  EXPECT_STATUS(other, 200u);
  EXPECT_EQ(header_int(other, "X-RateLimit-Remaining"), 4);
}

TEST_F(RateLimitTest, RateLimitedResponsesAreNotCounted) {
  auto t0 = Clock::now();
  for (int i = 0; i < 5; ++i) ASSERT_STATUS(get("/leads"), 200u);
  if (Clock::now() - t0 > 400ms) GTEST_SKIP() << "the machine is too slow for this timing test";
  int limited = 0;
  while (Clock::now() < t0 + 1800ms) {
    HttpResponse r = get("/leads");
    EXPECT_EQ(r.status, 429u) << r.describe();
    ++limited;
    std::this_thread::sleep_for(50ms);
  }
  EXPECT_GT(limited, 5);
  sleep_until(t0 + 2500ms);
  HttpResponse r = get("/leads");
  EXPECT_STATUS(r, 200u);
  EXPECT_EQ(header_int(r, "X-RateLimit-Remaining"), 4);
}

TEST_F(RateLimitTest, TheWindowSlides) {
  auto t0 = Clock::now();
  for (int i = 0; i < 3; ++i) ASSERT_STATUS(get("/leads"), 200u);
  if (Clock::now() - t0 > 300ms) GTEST_SKIP() << "the machine is too slow for this timing test";
  sleep_until(t0 + 1000ms);
  auto t1 = Clock::now();
  HttpResponse a = get("/leads");
  HttpResponse b = get("/leads");
  ASSERT_STATUS(a, 200u);
  ASSERT_STATUS(b, 200u);
  EXPECT_EQ(header_int(a, "X-RateLimit-Remaining"), 1);
  EXPECT_EQ(header_int(b, "X-RateLimit-Remaining"), 0);
  HttpResponse limited = get("/leads");
  ASSERT_TRUE(is_error(limited, 429));
  // The oldest counted request leaves the window at about t0 + 2 s, i.e. in about 1 s.
  std::int64_t retry = header_int(limited, "Retry-After");
  EXPECT_GE(retry, 1);
  EXPECT_LE(retry, 2);

  // After the first three left (t0 + 2 s) but before the last two leave (t1 + 2 s): 3 free.
  sleep_until(t0 + 2350ms);
  if (Clock::now() > t1 + 1800ms) GTEST_SKIP() << "the machine is too slow for this timing test";
  for (int i = 0; i < 3; ++i) {
    SCOPED_TRACE(i);
    HttpResponse r = get("/leads");
    ASSERT_STATUS(r, 200u);
    EXPECT_EQ(header_int(r, "X-RateLimit-Remaining"), 2 - i);
  }
  EXPECT_TRUE(is_error(get("/leads"), 429));
}

TEST_F(RateLimitTest, ResetIsWhenTheOldestCountedRequestLeavesTheWindow) {
  std::int64_t first_ms = now_millis();
  HttpResponse first = get("/leads");
  ASSERT_STATUS(first, 200u);
  std::this_thread::sleep_for(700ms);
  HttpResponse second = get("/leads");
  ASSERT_STATUS(second, 200u);
  // Both responses point at the first request's exit: about first + 2 s.
  for (const auto* r : {&first, &second}) {
    std::int64_t reset = header_int(*r, "X-RateLimit-Reset");
    EXPECT_GE(reset * 1000, first_ms + 2000 - 1000) << r->describe();
    EXPECT_LE(reset * 1000, first_ms + 2000 + 1000) << r->describe();
  }
}

TEST_F(RateLimitTest, EveryResponseFromTheRateLimitStepOnCarriesHeadersAndCounts) {
  const std::string ro = ws_ro().key;
  HttpResponse scope = post("/leads", json::object{{"visitor_name", "A"}}, ro);
  EXPECT_TRUE(is_error(scope, 403));
  ASSERT_TRUE(has_rate_limit_headers(scope));
  EXPECT_EQ(header_int(scope, "X-RateLimit-Remaining"), 4);

  HttpResponse missing = get("/leads?id=01890a5d-ac96-774b-bcce-b302099a8057", ro);
  EXPECT_TRUE(is_error(missing, 404));
  ASSERT_TRUE(has_rate_limit_headers(missing));
  EXPECT_EQ(header_int(missing, "X-RateLimit-Remaining"), 3);

  HttpResponse invalid = get("/leads?limit=0", ro);
  EXPECT_TRUE(is_error(invalid, 400));
  ASSERT_TRUE(has_rate_limit_headers(invalid));
  EXPECT_EQ(header_int(invalid, "X-RateLimit-Remaining"), 2);

  HttpResponse ok = get("/leads", ro);
  EXPECT_STATUS(ok, 200u);
  EXPECT_EQ(header_int(ok, "X-RateLimit-Remaining"), 1);

  HttpResponse last = patch("/leads", json::object{}, ro);
  EXPECT_TRUE(is_error(last, 403));
  EXPECT_EQ(header_int(last, "X-RateLimit-Remaining"), 0);

  // 429 comes before the scope check and before validation.
  HttpResponse over_scope = post("/leads", json::object{{"visitor_name", "A"}}, ro);
  EXPECT_TRUE(is_error(over_scope, 429));
  EXPECT_TRUE(has_rate_limit_headers(over_scope));
  EXPECT_TRUE(over_scope.has_header("Retry-After"));
  EXPECT_TRUE(is_error(get("/leads?limit=0", ro), 429));
  EXPECT_TRUE(is_error(send("POST", "/leads", std::string("not json"), {}, ro), 429));
}

TEST_F(RateLimitTest, UnauthenticatedAndIpRefusedRequestsCarryNoHeadersAndDoNotCount) {
  std::string key = str(create_key(ws_.id, "read", {"10.0.0.5"}).at("key"));
  for (int i = 0; i < 8; ++i) {
    HttpResponse r = get_from(key, "10.0.0.6");
    EXPECT_TRUE(is_error(r, 403));
    EXPECT_TRUE(has_rate_limit_headers(r, false));
  }
  HttpResponse allowed = get_from(key, "10.0.0.5");
  EXPECT_STATUS(allowed, 200u);
  EXPECT_EQ(header_int(allowed, "X-RateLimit-Remaining"), 4);

  for (int i = 0; i < 8; ++i) {
    HttpResponse r = get("/leads", "fc_live_" + repeat("x", 40));
    EXPECT_TRUE(is_error(r, 401));
    EXPECT_TRUE(has_rate_limit_headers(r, false));
  }
}

TEST_F(RateLimitTest, IpCheckComesBeforeTheRateLimit) {
  std::string key = str(create_key(ws_.id, "read", {"10.0.0.5"}).at("key"));
  for (int i = 0; i < 5; ++i) ASSERT_STATUS(get_from(key, "10.0.0.5"), 200u);
  EXPECT_TRUE(is_error(get_from(key, "10.0.0.5"), 429));
  HttpResponse r = get_from(key, "10.0.0.7");
  EXPECT_TRUE(is_error(r, 403));
  EXPECT_TRUE(has_rate_limit_headers(r, false));
}

TEST_F(RateLimitTest, AuthenticationComesBeforeTheRateLimit) {
  for (int i = 0; i < 6; ++i) get("/leads");
  ASSERT_TRUE(is_error(get("/leads"), 429));
  revoke_key(ws_.rw.id);
  HttpResponse r = get("/leads");
  EXPECT_TRUE(is_error(r, 401));
  EXPECT_TRUE(has_rate_limit_headers(r, false));
}

TEST_F(RateLimitTest, RoutingErrorsAndHttpRefusalsDoNotCount) {
  for (int i = 0; i < 6; ++i) {
    EXPECT_TRUE(is_error(get("/nothing-here"), 404));
    EXPECT_TRUE(is_error(send("PUT", "/leads", std::string("{}")), 405));
    EXPECT_TRUE(is_error(send("DELETE", "/conversations"), 405));
  }
  std::string big = R"({"visitor_name":")" + std::string(1100 * 1024, 'a') + "\"}";
  EXPECT_TRUE(is_error(send("POST", "/leads", big), 413));
  EXPECT_TRUE(
      is_error(send("GET", "/leads", std::nullopt, {{"X-Big", std::string(40 * 1024, 'b')}}), 431));
  raw_exchange(server().host(), server().port(),
               "GET /api/v1/external/leads HTTP/1.1\r\nAuthorization: Bearer " + ws_.rw.key +
                   "\r\nBroken header line\r\n\r\n",
               std::chrono::seconds(3));
  HttpResponse r = get("/leads");
  EXPECT_STATUS(r, 200u);
  EXPECT_EQ(header_int(r, "X-RateLimit-Remaining"), 4);
}

TEST_F(RateLimitTest, UsageCountsRateLimitHits) {
  for (int i = 0; i < 7; ++i) get("/leads");
  json::object usage;
  auto deadline = Clock::now() + 5500ms;
  do {
    usage = as_obj(cli_json({"keys", "usage", "--id", ws_.rw.id}));
    if (usage.at("today") == 7 && usage.at("rate_limited") == 2) break;
    std::this_thread::sleep_for(200ms);
  } while (Clock::now() < deadline);
  EXPECT_EQ(usage.at("today"), 7) << json::serialize(usage);
  EXPECT_EQ(usage.at("this_month"), 7) << json::serialize(usage);
  EXPECT_EQ(usage.at("rate_limited"), 2) << json::serialize(usage);
  EXPECT_NEAR(usage.at("error_rate").to_number<double>(), 2.0 / 7.0, 1e-6);
  EXPECT_EQ(usage.at("by_endpoint"), (json::object{{"GET /leads", 7}}));
}

// Servers started with other (or no) --rate-limit values.
class RateLimitSettingsTest : public ::testing::Test {
 protected:
  struct Started {
    std::unique_ptr<ServerProcess> server;
    std::string key;
  };

  static Started start(std::vector<std::string> args) {
    Started s;
    ServerOptions options;
    options.extra_args = std::move(args);
    s.server = std::make_unique<ServerProcess>(options);
    std::string db = s.server->db_url();
    std::string ws =
        str(as_obj(run_cli_json({"workspaces", "create", "--name", "R", "--db", db})).at("id"));
    s.key = str(as_obj(run_cli_json({"keys", "create", "--workspace", ws, "--name", "k", "--scopes",
                                     "read,write", "--db", db}))
                    .at("key"));
    return s;
  }
};

TEST_F(RateLimitSettingsTest, DefaultIs100RequestsPerMinute) {
  Started s = start({});
  HttpClient c(s.server->host(), s.server->port());
  Headers auth = {{"Authorization", "Bearer " + s.key}};
  HttpResponse r = c.request("GET", "/api/v1/external/leads", std::nullopt, auth);
  ASSERT_STATUS(r, 200u);
  EXPECT_EQ(header_int(r, "X-RateLimit-Limit"), 100);
  EXPECT_EQ(header_int(r, "X-RateLimit-Remaining"), 99);
  std::int64_t reset = header_int(r, "X-RateLimit-Reset");
  EXPECT_GE(reset, unix_now() + 58);
  EXPECT_LE(reset, unix_now() + 61);
}

TEST_F(RateLimitSettingsTest, AcceptedRateLimitFormats) {
  for (const auto& [arg, n] : std::vector<std::pair<std::string, std::int64_t>>{
           {"10000/60s", 10000}, {"100/1m", 100}, {"1000000/1s", 1000000}, {"2/1h", 2}}) {
    SCOPED_TRACE(arg);
    Started s = start({"--rate-limit", arg});
    HttpClient c(s.server->host(), s.server->port());
    HttpResponse r = c.request("GET", "/api/v1/external/leads", std::nullopt,
                               {{"Authorization", "Bearer " + s.key}});
    ASSERT_STATUS(r, 200u);
    EXPECT_EQ(header_int(r, "X-RateLimit-Limit"), n);
    EXPECT_EQ(header_int(r, "X-RateLimit-Remaining"), n - 1);
  }
}

TEST_F(RateLimitSettingsTest, MillisecondWindowsAndRetryAfterOfAtLeastOneSecond) {
  Started s = start({"--rate-limit", "3/500ms"});
  HttpClient c(s.server->host(), s.server->port());
  Headers auth = {{"Authorization", "Bearer " + s.key}};
  for (int i = 0; i < 3; ++i) {
    ASSERT_STATUS(c.request("GET", "/api/v1/external/leads", std::nullopt, auth), 200u);
  }
  HttpResponse limited = c.request("GET", "/api/v1/external/leads", std::nullopt, auth);
  ASSERT_TRUE(is_error(limited, 429));
  EXPECT_GE(header_int(limited, "Retry-After"), 1);
  EXPECT_LE(header_int(limited, "Retry-After"), 2);
  std::this_thread::sleep_for(700ms);
  EXPECT_STATUS(c.request("GET", "/api/v1/external/leads", std::nullopt, auth), 200u);
}

TEST_F(RateLimitSettingsTest, ExactUnderConcurrency) {
  Started s = start({"--rate-limit", "100/60s"});
  constexpr int kN = 150;
  std::vector<std::unique_ptr<HttpClient>> clients;
  for (int i = 0; i < kN; ++i) {
    clients.push_back(std::make_unique<HttpClient>(s.server->host(), s.server->port()));
    clients.back()->connect();
  }
  std::vector<unsigned> status(kN, 0);
  std::vector<std::string> failures(kN);
  std::latch start_line(kN);
  std::vector<std::thread> threads;
  for (int i = 0; i < kN; ++i) {
    threads.emplace_back([&, i] {
      start_line.arrive_and_wait();
      try {
        status[i] = clients[i]
                        ->request("GET", "/api/v1/external/leads", std::nullopt,
                                  {{"Authorization", "Bearer " + s.key}})
                        .status;
      } catch (const std::exception& e) {
        failures[i] = e.what();
      }
    });
  }
  for (auto& t : threads) t.join();
  int ok = 0;
  int limited = 0;
  for (int i = 0; i < kN; ++i) {
    ASSERT_TRUE(failures[i].empty()) << failures[i];
    if (status[i] == 429) {
      ++limited;
    } else {
      EXPECT_EQ(status[i], 200u);
      ++ok;
    }
  }
  EXPECT_EQ(ok, 100);
  EXPECT_EQ(limited, 50);
}

}  // namespace
}  // namespace leadline_test
