// The dashboard behind two `leadline serve` instances on one PostgreSQL database: a session
// opened at one instance works at the other, signing out at either ends it at both, the sign-in
// throttle counts at every instance, and a key revoked in the dashboard at one instance is
// refused by the API at the other on its very next request.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include "support/checks.hpp"
#include "support/cli_runner.hpp"
#include "support/dashboard_session.hpp"
#include "support/http_client.hpp"
#include "support/postgres_instance.hpp"
#include "support/server_process.hpp"

namespace leadline_test {
namespace {

namespace json = boost::json;

const std::string kPassword = "correct horse battery staple";

class MultiInstanceDashboardTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_url_ = fresh_postgres_database();
    workspace_ = str(as_obj(cli({"workspaces", "create", "--name", "Multi"})).at("id"));
    add_dashboard_user(db_url_, workspace_, kEmail, kPassword);
    for (int i = 0; i < 2; ++i) {
      ServerOptions options;
      options.db_url = db_url_;
      options.extra_args = {"--rate-limit", "1000000/60s"};
      servers_.push_back(std::make_unique<ServerProcess>(options));
      browsers_.push_back(
          std::make_unique<DashboardSession>(servers_.back()->host(), servers_.back()->port()));
    }
  }

  json::value cli(std::vector<std::string> args) {
    args.push_back("--db");
    args.push_back(db_url_);
    return run_cli_json(std::move(args));
  }

  static constexpr const char* kEmail = "multi@example.com";
  std::string db_url_;
  std::string workspace_;
  std::vector<std::unique_ptr<ServerProcess>> servers_;
  std::vector<std::unique_ptr<DashboardSession>> browsers_;  // one per instance
};

TEST_F(MultiInstanceDashboardTest, ASessionOpenedAtOneInstanceWorksAndEndsAtBoth) {
  DashboardSession& a = *browsers_[0];
  DashboardSession& b = *browsers_[1];
  const HttpResponse in = a.sign_in(kEmail, kPassword);
  ASSERT_STATUS(in, 200u);

  // The same cookie and token, presented to the other instance.
  b.use_cookie(a.cookie());
  b.set_csrf_token(a.csrf_token());
  const HttpResponse there = b.get("session");
  ASSERT_STATUS(there, 200u);
  EXPECT_EQ(there.data(), in.data());
  EXPECT_STATUS(b.get("keys"), 200u);
  EXPECT_STATUS(b.post("keys", json::object{{"name", "from B"},
                                            {"scopes", json::array{"read"}},
                                            {"allowed_ips", json::array{}}}),
                201u);
  EXPECT_EQ(a.get("keys").data().as_array().size(), 1u);

  ASSERT_STATUS(b.sign_out(), 200u);
  EXPECT_TRUE(is_error(a.get("session"), 401));
  EXPECT_TRUE(is_error(a.get("keys"), 401));
  EXPECT_TRUE(is_error(b.get("session"), 401));
}

TEST_F(MultiInstanceDashboardTest, TheSignInThrottleCountsAtEveryInstance) {
  for (int i = 0; i < 5; ++i) {
    const HttpResponse r = browsers_[i % 2]->sign_in(kEmail, "wrong password");
    EXPECT_TRUE(is_error(r, 401, kSignInFailure));
  }
  for (auto& browser : browsers_) {
    const HttpResponse r = browser->sign_in(kEmail, kPassword);
    EXPECT_TRUE(is_error(r, 429)) << r.describe();
    EXPECT_FALSE(r.header("Retry-After").empty()) << r.describe();
  }
}

TEST_F(MultiInstanceDashboardTest, AKeyRevokedInTheDashboardIsRefusedAtTheOtherInstance) {
  const json::object key =
      as_obj(cli({"keys", "create", "--workspace", workspace_, "--name", "k", "--scopes", "read"}));
  HttpClient api(servers_[1]->host(), servers_[1]->port());
  const Headers auth = {{"Authorization", "Bearer " + str(key.at("key"))}};
  ASSERT_STATUS(api.request("GET", "/api/v1/external/leads", std::nullopt, auth), 200u);

  DashboardSession& a = *browsers_[0];
  ASSERT_STATUS(a.sign_in(kEmail, kPassword), 200u);
  ASSERT_STATUS(a.post("keys/revoke?id=" + str(key.at("id"))), 200u);
  EXPECT_TRUE(is_error(api.request("GET", "/api/v1/external/leads", std::nullopt, auth), 401));
}

}  // namespace
}  // namespace leadline_test
