// `leadline serve`: the "listening on HOST:PORT" line with the port picked for 127.0.0.1:0, and
// refusal of invalid --rate-limit / --trust-proxy values (stderr, non-zero exit).

#include <gtest/gtest.h>

#include <string>

#include "support/cli_fixture.hpp"

namespace leadline_test {
namespace {

class ServeTest : public CliTest {};

TEST_F(ServeTest, PrintsListeningOnWithThePickedPortAndServes) {
  ServerProcess& s = server();
  EXPECT_NE(s.port(), 0);
  EXPECT_NE(s.output().find("listening on 127.0.0.1:" + std::to_string(s.port())),
            std::string::npos)
      << s.output();
  HttpClient c(s.host(), s.port());
  HttpResponse r = c.request("GET", "/api/v1/external/leads");
  EXPECT_TRUE(is_error(r, 401));
}

// What `make run` does: --demo fills an empty database once and prints a key that works, the
// commands to try and where the reference page is; a restart adds nothing and shows no key.
TEST_F(ServeTest, DemoFillsAnEmptyDatabaseOnceAndPrintsAWorkingKey) {
  ServerOptions options;
  options.extra_args = {"--demo"};
  ServerProcess s(options);
  {
    const std::string out = s.output();
    const std::string marker = "API key (read+write; shown only now): ";
    const auto at = out.find(marker);
    ASSERT_NE(at, std::string::npos) << out;
    const std::string key = out.substr(at + marker.size(), 48);
    ASSERT_EQ(key.rfind("fc_live_", 0), 0u) << out;
    const std::string base = "http://127.0.0.1:" + std::to_string(s.port());
    EXPECT_NE(out.find("API reference: " + base + "/docs\n"), std::string::npos) << out;
    EXPECT_NE(out.find("curl -s -H 'Authorization: Bearer " + key + "' '" + base +
                       "/api/v1/external/leads?limit=5&sort=lead_score:desc'"),
              std::string::npos)
        << out;

    HttpClient c(s.host(), s.port());
    for (const char* resource : {"leads", "contacts", "conversations"}) {
      SCOPED_TRACE(resource);
      const HttpResponse r = c.request("GET", std::string("/api/v1/external/") + resource,
                                       std::nullopt, {{"Authorization", "Bearer " + key}});
      ASSERT_EQ(r.status, 200u) << r.describe();
      EXPECT_GT(r.json->at("pagination").at("total_count").to_number<std::int64_t>(), 5);
    }
  }
  s.restart();
  EXPECT_NE(s.output().find("Demo data exists"), std::string::npos) << s.output();
  EXPECT_EQ(s.output().find("shown only now"), std::string::npos) << s.output();
}

TEST_F(ServeTest, TwoServersPickDifferentPorts) {
  ServerOptions options;
  options.db_url = db_url();
  ServerProcess a(options);
  ServerProcess b(options);
  EXPECT_NE(a.port(), b.port());
}

TEST_F(ServeTest, InvalidRateLimitIsRefused) {
  for (const char* limit : {"0/1s", "abc", "5/2x", "5", "-1/1s", "5/", "/2s", "1.5/2s"}) {
    SCOPED_TRACE(limit);
    CliOptions options;
    options.timeout = std::chrono::seconds(10);
    CliResult r = run({"serve", "--listen", "127.0.0.1:0", "--rate-limit", limit}, options);
    EXPECT_FALSE(r.timed_out) << "serve kept running with an invalid --rate-limit\n"
                              << r.describe();
    EXPECT_NE(r.exit_code, 0) << r.describe();
    EXPECT_FALSE(r.err.empty()) << r.describe();
  }
}

TEST_F(ServeTest, InvalidTrustProxyIsRefused) {
  for (const char* ranges : {"not-a-cidr", "10.0.0.0/33", "127.0.0.1/8,nope"}) {
    SCOPED_TRACE(ranges);
    CliOptions options;
    options.timeout = std::chrono::seconds(10);
    CliResult r = run({"serve", "--listen", "127.0.0.1:0", "--trust-proxy", ranges}, options);
    EXPECT_FALSE(r.timed_out) << "serve kept running with an invalid --trust-proxy\n"
                              << r.describe();
    EXPECT_NE(r.exit_code, 0) << r.describe();
    EXPECT_FALSE(r.err.empty()) << r.describe();
  }
}

}  // namespace
}  // namespace leadline_test
