// Round trips between `leadline serve` and PostgreSQL, counted by a proxy between them: after
// warm-up (connections open, statements prepared, the key known), a read request costs one
// round trip, its key check included, and creating a lead two; and a key revoked by another
// process is refused on the very next request all the same.

#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include <boost/json.hpp>

#include "support/checks.hpp"
#include "support/cli_runner.hpp"
#include "support/http_client.hpp"
#include "support/pg_round_trip_proxy.hpp"
#include "support/postgres_instance.hpp"
#include "support/server_process.hpp"

namespace leadline_test {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;

constexpr const char* kTripsBase = "/api/v1/external";
constexpr int kRequests = 20;

class RoundTripTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_url_ = fresh_postgres_database();
    proxy_ = std::make_unique<PgRoundTripProxy>(db_url_);
    workspace_ = str(as_obj(cli({"workspaces", "create", "--name", "Trips"})).at("id"));
    json::object key = as_obj(cli(
        {"keys", "create", "--workspace", workspace_, "--name", "k", "--scopes", "read,write"}));
    key_id_ = str(key.at("id"));
    key_ = str(key.at("key"));
    ServerOptions options;
    options.db_url = proxy_->through(db_url_);
    // No webhook dispatcher, whose polls would be counted too.
    options.extra_args = {"--rate-limit", "1000000/60s", "--webhook-workers", "0"};
    server_ = std::make_unique<ServerProcess>(options);
    client_ = std::make_unique<HttpClient>(server_->host(), server_->port());
  }

  json::value cli(std::vector<std::string> args) {
    args.push_back("--db");
    args.push_back(db_url_);
    return run_cli_json(std::move(args));
  }

  HttpResponse send(std::string_view method, const std::string& path,
                    std::optional<std::string> body = std::nullopt) {
    return client_->request(method, std::string(kTripsBase) + path, std::move(body),
                            {{"Authorization", "Bearer " + key_}});
  }

  // Usage counts are written a second after the last write of them: waits for such a write to
  // begin and then for 100 ms without a round trip, so that all of its round trips are over
  // however slowly a loaded machine runs them; the next write is then most of a second away.
  void after_usage_flush() {
    const long before = proxy_->round_trips();
    const auto deadline = std::chrono::steady_clock::now() + 3s;
    while (proxy_->round_trips() == before && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(2ms);
    }
    for (long seen = -1; seen != proxy_->round_trips();) {
      seen = proxy_->round_trips();
      std::this_thread::sleep_for(100ms);
    }
  }

  // Round trips made while `n` requests of `path` were answered `status`, after the same
  // requests warmed up the connection. Counted in windows between two usage writes: requests
  // start within 400 ms after one is over, and a window counts only if its last answer came
  // within 800 ms, since the next usage write starts a second after the last one ended. A
  // window a loaded machine stretched past that is measured again.
  long round_trips_of(const std::string& path, int n, std::string_view method = "GET",
                      std::optional<std::string> body = std::nullopt, unsigned status = 200) {
    for (int i = 0; i < 3; ++i) EXPECT_STATUS(send(method, path, body), status);
    long trips = 0;
    for (int done = 0, stretched = 0; done < n;) {
      after_usage_flush();
      const auto start = std::chrono::steady_clock::now();
      const long before = proxy_->round_trips();
      int sent = 0;
      for (; done + sent < n && std::chrono::steady_clock::now() < start + 400ms; ++sent) {
        EXPECT_STATUS(send(method, path, body), status);
      }
      const long made = proxy_->round_trips() - before;
      if (std::chrono::steady_clock::now() > start + 800ms && ++stretched < 20) continue;
      trips += made;
      done += sent;
    }
    return trips;
  }

  std::string db_url_;
  std::unique_ptr<PgRoundTripProxy> proxy_;
  std::string workspace_;
  std::string key_id_;
  std::string key_;
  std::unique_ptr<ServerProcess> server_;
  std::unique_ptr<HttpClient> client_;
};

TEST_F(RoundTripTest, AListRequestIsOneRoundTrip) {
  ASSERT_STATUS(send("POST", "/leads", R"({"visitor_name":"Ada"})"), 201u);
  EXPECT_LE(round_trips_of("/leads", kRequests), kRequests);
}

TEST_F(RoundTripTest, ASearchRequestIsOneRoundTrip) {
  ASSERT_STATUS(send("POST", "/leads", R"({"visitor_name":"Zephyr"})"), 201u);
  EXPECT_LE(round_trips_of("/leads?search=zeph", kRequests), kRequests);
}

TEST_F(RoundTripTest, GettingOneRecordIsOneRoundTrip) {
  HttpResponse created = send("POST", "/leads", R"({"visitor_name":"Ada"})");
  ASSERT_STATUS(created, 201u);
  const std::string id = str(as_obj(created.data()).at("id"));
  EXPECT_LE(round_trips_of("/leads?id=" + id, kRequests), kRequests);
}

// BEGIN, the key check, the lead's and its event's inserts and the webhook lookup; then COMMIT,
// whose answer the response waits for.
TEST_F(RoundTripTest, CreatingALeadIsTwoRoundTrips) {
  EXPECT_LE(round_trips_of("/leads", kRequests, "POST", R"({"visitor_name":"Ada"})", 201),
            2 * kRequests);
}

TEST_F(RoundTripTest, AKeyRevokedElsewhereIsRefusedOnTheNextRequest) {
  EXPECT_LE(round_trips_of("/leads", 2), 2);
  cli({"keys", "revoke", "--id", key_id_});
  EXPECT_STATUS(send("GET", "/leads"), 401u);
  EXPECT_STATUS(send("POST", "/leads", R"({"visitor_name":"Ada"})"), 401u);
  EXPECT_STATUS(send("GET", "/leads?limit=0"), 401u);
}

}  // namespace
}  // namespace leadline_test
