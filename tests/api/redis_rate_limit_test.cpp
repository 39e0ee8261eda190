// The Redis-shared rate limit, black-box: two `leadline serve` processes on one database and
// one private redis-server share each key's window exactly; a Redis outage answers 503 (fail
// closed) without crashing and service resumes by itself; a bad --redis is a usage error.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <thread>

#include "support/fixture.hpp"
#include "support/redis_instance.hpp"

namespace leadline_test {
namespace {

using Clock = std::chrono::steady_clock;
constexpr const char* kLeads = "/api/v1/external/leads";

std::size_t occurrences(const std::string& text, std::string_view piece) {
  std::size_t count = 0;
  for (auto at = text.find(piece); at != std::string::npos; at = text.find(piece, at + 1)) {
    ++count;
  }
  return count;
}

class RedisRateLimitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    redis_ = std::make_unique<RedisInstance>();
    ServerOptions options;
    options.extra_args = {"--rate-limit", "10/5s", "--redis", redis_->url()};
    first_ = std::make_unique<ServerProcess>(options);
    options.db_url = first_->db_url();
    second_ = std::make_unique<ServerProcess>(options);

    const std::string db = first_->db_url();
    const std::string ws =
        str(as_obj(run_cli_json({"workspaces", "create", "--name", "R", "--db", db})).at("id"));
    key_ = str(as_obj(run_cli_json({"keys", "create", "--workspace", ws, "--name", "k", "--scopes",
                                    "read,write", "--db", db}))
                   .at("key"));
  }

  HttpResponse get(ServerProcess& server, std::optional<std::string> key = std::nullopt) {
    HttpClient client(server.host(), server.port());
    Headers headers;
    const std::string k = key.value_or(key_);
    if (!k.empty()) headers.emplace_back("Authorization", "Bearer " + k);
    return client.request("GET", kLeads, std::nullopt, headers);
  }

  // Asks until the answer is not 503, for at most `patience`.
  HttpResponse get_once_redis_answers(ServerProcess& server, std::chrono::milliseconds patience) {
    const auto deadline = Clock::now() + patience;
    HttpResponse r = get(server);
    while (r.status == 503 && Clock::now() < deadline) {
      std::this_thread::sleep_for(50ms);
      r = get(server);
    }
    return r;
  }

  // Destroyed in reverse: the servers stop before their database and before Redis.
  std::unique_ptr<RedisInstance> redis_;
  std::unique_ptr<ServerProcess> first_;
  std::unique_ptr<ServerProcess> second_;
  std::string key_;
};

TEST_F(RedisRateLimitTest, TwoInstancesShareOneWindowExactly) {
  int ok = 0;
  int limited = 0;
  for (int i = 0; i < 16; ++i) {
    SCOPED_TRACE(i);
    HttpResponse r = get(i % 2 == 0 ? *first_ : *second_);
    ASSERT_TRUE(has_rate_limit_headers(r));
    EXPECT_EQ(r.header("X-RateLimit-Limit"), "10");
    if (r.status == 200) {
      EXPECT_EQ(r.header("X-RateLimit-Remaining"), std::to_string(9 - ok));
      ++ok;
      continue;
    }
    EXPECT_TRUE(is_error(r, 429));
    EXPECT_EQ(r.header("X-RateLimit-Remaining"), "0");
    const std::string retry = r.header("Retry-After");
    ASSERT_FALSE(retry.empty()) << r.describe();
    EXPECT_GE(std::stoi(retry), 1);
    EXPECT_LE(std::stoi(retry), 5);
    ++limited;
  }
  EXPECT_EQ(ok, 10);
  EXPECT_EQ(limited, 6);
}

TEST_F(RedisRateLimitTest, RedisOutageAnswers503AndServiceResumesWhenItIsBack) {
  ASSERT_STATUS(get(*first_), 200u);
  redis_->stop();

  for (ServerProcess* server : {first_.get(), second_.get()}) {
    for (int i = 0; i < 5; ++i) {
      SCOPED_TRACE(i);
      const auto t0 = Clock::now();
      HttpResponse r = get(*server);
      EXPECT_LT(Clock::now() - t0, 1s) << "a dead Redis must not hold requests";
      EXPECT_TRUE(is_error(r, 503, "rate limiter unavailable: cannot reach Redis"));
      EXPECT_TRUE(has_json_content_type(r));
      EXPECT_EQ(r.header("Retry-After"), "1") << r.describe();
      EXPECT_TRUE(has_rate_limit_headers(r, false));
      EXPECT_TRUE(r.has_header("X-Request-Id"));
    }
    // Authentication still comes first.
    EXPECT_TRUE(is_error(get(*server, ""), 401));
    EXPECT_TRUE(is_error(get(*server, "fc_live_" + repeat("x", 40)), 401));
    EXPECT_TRUE(server->running()) << server->output();
  }

  redis_->start();
  for (ServerProcess* server : {first_.get(), second_.get()}) {
    HttpResponse r = get_once_redis_answers(*server, 3s);
    EXPECT_STATUS(r, 200u);
    // The restarted Redis kept nothing, so this is the first counted request of a new window.
    EXPECT_TRUE(has_rate_limit_headers(r));
  }

  // One line for the outage and one for the recovery, not one per refused request. The
  // recovery line may reach the server's log a moment after the answer reached the client.
  std::string out = first_->output();
  for (int i = 0; i < 40 && occurrences(out, "answers again") == 0; ++i) {
    std::this_thread::sleep_for(50ms);
    out = first_->output();
  }
  EXPECT_EQ(occurrences(out, "is unavailable"), 1u) << out;
  EXPECT_EQ(occurrences(out, "answers again"), 1u) << out;
}

TEST_F(RedisRateLimitTest, AnInstanceStartsBeforeRedisAndServesOnceItAnswers) {
  redis_->stop();
  ServerOptions options;
  options.extra_args = {"--rate-limit", "10/5s", "--redis", redis_->url()};
  options.db_url = first_->db_url();
  ServerProcess early(options);
  EXPECT_NE(early.output().find("level=warn msg=\"cannot reach Redis at 127.0.0.1:" +
                                std::to_string(redis_->port())),
            std::string::npos)
      << early.output();
  EXPECT_TRUE(is_error(get(early), 503));

  redis_->start();
  HttpResponse r = get_once_redis_answers(early, 3s);
  EXPECT_STATUS(r, 200u);
  EXPECT_EQ(r.header("X-RateLimit-Remaining"), "9");
}

TEST(RedisSettings, AMalformedRedisUrlIsAUsageErrorNamingItsSource) {
  for (const char* url : {"nonsense", "redis://localhost", "http://127.0.0.1:6379"}) {
    SCOPED_TRACE(url);
    CliOptions options;
    options.timeout = std::chrono::seconds(10);
    CliResult r = run_cli({"serve", "--listen", "127.0.0.1:0", "--redis", url}, options);
    EXPECT_FALSE(r.timed_out) << r.describe();
    EXPECT_EQ(r.exit_code, 2) << r.describe();
    EXPECT_NE(r.err.find("--redis must be redis://HOST:PORT"), std::string::npos) << r.describe();
  }

  CliOptions env;
  env.timeout = std::chrono::seconds(10);
  env.env = {{"LEADLINE_REDIS", "redis://:hunter2@nowhere"}};
  CliResult r = run_cli({"serve", "--listen", "127.0.0.1:0"}, env);
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_NE(r.err.find("LEADLINE_REDIS must be"), std::string::npos) << r.describe();
  EXPECT_EQ(r.err.find("hunter2"), std::string::npos) << "the password was echoed\n"
                                                      << r.describe();
}

TEST(RedisSettings, HelpDescribesTheFlag) {
  CliResult r = run_cli({"serve", "--help"});
  EXPECT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("--redis"), std::string::npos) << r.describe();
  EXPECT_NE(r.out.find("LEADLINE_REDIS"), std::string::npos) << r.describe();
}

}  // namespace
}  // namespace leadline_test
