// `leadline serve`: the "listening on HOST:PORT" line with the port picked for 127.0.0.1:0, the
// demo (`make run`) and what README.md shows of it, and refusal of invalid --rate-limit /
// --trust-proxy values (stderr, non-zero exit).

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "support/cli_fixture.hpp"
#include "support/readme_examples.hpp"

namespace leadline_test {
namespace {

class ServeTest : public CliTest {};

// The rest of the line that `marker` starts in `output`; empty when there is none.
std::string printed_after(const std::string& output, const std::string& marker) {
  const auto at = output.find(marker);
  if (at == std::string::npos) return "";
  return output.substr(at + marker.size(), output.find('\n', at) - at - marker.size());
}

// The key `serve --demo` prints once, on a fresh database.
std::string printed_demo_key(const std::string& output) {
  return printed_after(output, "API key (read+write; shown only now): ");
}

// `target` without its query parameter `name` (and the '&' that joined it).
std::string without_param(std::string target, const std::string& name) {
  const auto at = target.find(name + "=");
  if (at == std::string::npos) return target;
  auto end = target.find('&', at);
  end = end == std::string::npos ? target.size() : end + 1;
  target.erase(at, end - at);
  if (!target.empty() && (target.back() == '&' || target.back() == '?')) target.pop_back();
  return target;
}

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

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

TEST_F(ServeTest, NoDashboardLeavesEveryDashboardPathUnknown) {
  ServerProcess& on = server();
  HttpClient with(on.host(), on.port());
  EXPECT_EQ(with.request("GET", "/dashboard/sign-in").status, 200u);

  ServerOptions options;
  options.extra_args = {"--no-dashboard"};
  ServerProcess off(options);
  HttpClient without(off.host(), off.port());
  for (const char* path : {"/dashboard", "/dashboard/sign-in", "/dashboard/api/session",
                           "/dashboard/assets/dashboard.css"}) {
    EXPECT_TRUE(is_error(without.request("GET", path), 404)) << path;
  }
}

TEST_F(ServeTest, DashboardAssetsAreRevalidatedByTheirETag) {
  ServerProcess& s = server();
  HttpClient c(s.host(), s.port());
  const HttpResponse first = c.request("GET", "/dashboard/assets/dashboard.css");
  ASSERT_EQ(first.status, 200u) << first.describe();
  EXPECT_FALSE(first.body.empty());
  const std::string etag = first.header("ETag");
  ASSERT_EQ(etag.size(), 34u) << first.describe();
  EXPECT_EQ(first.header("Cache-Control"), "no-cache");

  const HttpResponse same =
      c.request("GET", "/dashboard/assets/dashboard.css", std::nullopt, {{"If-None-Match", etag}});
  EXPECT_EQ(same.status, 304u) << same.describe();
  EXPECT_TRUE(same.body.empty());
  EXPECT_EQ(same.header("ETag"), etag);
  const HttpResponse other =
      c.request("GET", "/dashboard/assets/dashboard.js", std::nullopt, {{"If-None-Match", etag}});
  EXPECT_EQ(other.status, 200u) << other.describe();
  EXPECT_NE(other.header("ETag"), etag);
}

// What `make run` does: --demo fills an empty database once and prints a key that works, the
// commands to try, where the reference page is and the dashboard user's sign-in; a restart adds
// nothing and shows neither key nor password.
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

    EXPECT_NE(out.find("Dashboard: " + base + "/dashboard/sign-in\n"), std::string::npos) << out;
    EXPECT_NE(out.find("Dashboard e-mail: demo@example.com\n"), std::string::npos) << out;
    const std::string password = printed_after(out, "Dashboard password (shown only now): ");
    EXPECT_TRUE(std::regex_match(password, std::regex("[A-Za-z0-9]{20}"))) << out;
    const std::string ws = printed_after(out, "Demo workspace created: ");
    const json::value users =
        run_cli_json({"users", "list", "--workspace", ws, "--db", s.db_url()});
    ASSERT_EQ(users.as_array().size(), 1u) << users;
    EXPECT_EQ(users.as_array()[0].at("email"), "demo@example.com");
    EXPECT_EQ(users.as_array()[0].at("name"), "Demo User");

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
  EXPECT_EQ(s.output().find("Dashboard"), std::string::npos) << s.output();
}

// With --json the same, as one object: demo.dashboard holds the sign-in URL, e-mail and
// password on the first start, and is null after a restart.
TEST_F(ServeTest, DemoWithJsonPrintsTheDashboardSignInOnce) {
  ServerOptions options;
  options.extra_args = {"--demo", "--json"};
  ServerProcess s(options);
  const auto first = parse_json(s.output());
  ASSERT_TRUE(first && first->is_object()) << s.output();
  const json::value& demo = first->at("demo");
  EXPECT_EQ(demo.at("created"), true);
  const json::value& dashboard = demo.at("dashboard");
  ASSERT_TRUE(dashboard.is_object()) << demo;
  EXPECT_EQ(keys_of(dashboard), key_set({"url", "email", "password"}));
  EXPECT_EQ(dashboard.at("url"),
            json::value("http://127.0.0.1:" + std::to_string(s.port()) + "/dashboard/sign-in"));
  EXPECT_EQ(dashboard.at("email"), "demo@example.com");
  EXPECT_TRUE(std::regex_match(str(dashboard.at("password")), std::regex("[A-Za-z0-9]{20}")))
      << dashboard;
  // The printed password signs in.
  HttpClient c(s.host(), s.port());
  const auto signed_in =
      c.request("POST", "/dashboard/api/session",
                json::serialize(json::object{{"email", "demo@example.com"},
                                             {"password", dashboard.at("password")}}));
  EXPECT_EQ(signed_in.status, 200u) << signed_in.describe();

  s.restart();
  const auto again = parse_json(s.output());
  ASSERT_TRUE(again && again->is_object()) << s.output();
  EXPECT_EQ(again->at("demo").at("created"), false);
  EXPECT_TRUE(again->at("demo").at("dashboard").is_null()) << s.output();
  EXPECT_EQ(s.output().find(str(dashboard.at("password"))), std::string::npos) << s.output();
}

// Every curl example of README.md, run as written against `serve --demo` on a fresh database,
// shows something: a 2xx with non-empty `data`. The README's placeholders are filled from the
// demo data: LEAD_ID and the like with a record of that resource, NEXT_CURSOR with the
// next_cursor of the same request without it. New examples are picked up from the README.
TEST_F(ServeTest, EveryReadmeExampleShowsSomethingOnTheDemoData) {
  ServerOptions options;
  options.extra_args = {"--demo"};
  ServerProcess s(options);
  const std::string key = printed_demo_key(s.output());
  ASSERT_EQ(key.rfind("fc_live_", 0), 0u) << s.output();

  std::ifstream file(LEADLINE_README);
  ASSERT_TRUE(file) << LEADLINE_README;
  std::stringstream readme;
  readme << file.rdbuf();
  const std::string api = "/api/v1/external";
  const auto examples = readme_curl_examples(readme.str(), api, key);
  ASSERT_GE(examples.size(), 10u) << "the README's curl examples were not found";

  HttpClient c(s.host(), s.port());
  const Headers auth = {{"Authorization", "Bearer " + key}};
  const auto data_of = [&](const std::string& target) {
    const HttpResponse r = c.request("GET", target, std::nullopt, auth);
    if (r.status != 200u) throw std::runtime_error("GET " + target + ": " + r.describe());
    return r;
  };
  std::map<std::string, std::string> ids;  // placeholder -> an id of the demo data
  for (ReadmeExample example : examples) {
    SCOPED_TRACE(example.command);
    for (const auto& [placeholder, resource] :
         std::map<std::string, std::string>{{"LEAD_ID", "leads"},
                                            {"CONTACT_ID", "contacts"},
                                            {"CONVERSATION_ID", "conversations"},
                                            {"EVENT_ID", "events"}}) {
      if (example.url.find(placeholder) == std::string::npos) continue;
      if (!ids.contains(placeholder)) {
        ids[placeholder] =
            str(data_of(api + "/" + resource + "?limit=1").data().as_array().at(0).at("id"));
      }
      replace_all(example.url, placeholder, ids[placeholder]);
    }
    if (example.url.find("NEXT_CURSOR") != std::string::npos) {
      const HttpResponse first = data_of(without_param(example.url, "cursor"));
      const auto& cursor = first.object().at("pagination").at("next_cursor");
      ASSERT_TRUE(cursor.is_string()) << "the page before has no next page\n" << first.describe();
      replace_all(example.url, "NEXT_CURSOR", str(cursor));
    }

    const HttpResponse r = c.request(example.method, example.url, example.body, example.headers);
    EXPECT_GE(r.status, 200u) << r.describe();
    EXPECT_LT(r.status, 300u) << r.describe();
    ASSERT_TRUE(r.json && r.json->is_object() && r.json->as_object().contains("data"))
        << r.describe();
    const json::value& data = r.data();
    const bool shows_something = (data.is_array() && !data.as_array().empty()) ||
                                 (data.is_object() && !data.as_object().empty());
    EXPECT_TRUE(shows_something) << example.method << " " << example.url << " shows nothing\n"
                                 << r.describe();
  }
}

// The binary is not on PATH: the advice to create a key, printed when the demo data exists,
// names it as it runs from the server's working directory (`./build/leadline` for `make run`,
// which serves from the checkout), and the command works as printed.
TEST_F(ServeTest, ARestartSuggestsAKeysCommandThatWorksAsPrinted) {
  const std::filesystem::path binary = leadline_binary();
  const std::filesystem::path checkout = binary.parent_path().parent_path();
  ServerOptions options;
  options.db_url = db_url();
  options.extra_args = {"--demo"};
  options.cwd = checkout;
  ServerProcess s(options);
  s.restart();
  const std::string out = s.output();
  const std::string marker = "create a key with: ";
  const auto at = out.find(marker);
  ASSERT_NE(at, std::string::npos) << out;
  const std::string command =
      out.substr(at + marker.size(), out.find('\n', at) - at - marker.size());
  const std::string program = "./" + binary.parent_path().filename().string() + "/leadline";
  ASSERT_EQ(command.rfind(program + " keys create --workspace ", 0), 0u) << command;

  std::vector<std::string> args;
  std::istringstream words(command.substr(program.size()));
  for (std::string word; words >> word;) args.push_back(word == "NAME" ? "mine" : word);
  args.insert(args.end(), {"--db", db_url()});
  CliOptions in_checkout;
  in_checkout.cwd = checkout;
  const CliResult r = run_program(program, args, in_checkout);
  EXPECT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("fc_live_"), std::string::npos) << r.describe();
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
