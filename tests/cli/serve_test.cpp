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
