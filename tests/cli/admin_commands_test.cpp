// Operator commands with --json: workspaces, keys (create / list / revoke / usage), reps, agents,
// departments; their exact output shapes, error handling, --db defaults, and key secrecy.

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <string>
#include <thread>

#include "support/cli_fixture.hpp"
#include "support/database_probe.hpp"

namespace leadline_test {
namespace {

class AdminCommandsTest : public CliTest {};

const KeySet kKeyCreated = {"id", "key", "name", "scopes", "allowed_ips", "created_at"};
const KeySet kKeyListed = {"id",         "name",   "scopes",    "allowed_ips",
                           "created_at", "prefix", "revoked_at"};

std::set<std::string> as_set(const json::value& array_of_strings) {
  auto v = strings_of(array_of_strings);
  return {v.begin(), v.end()};
}

void expect_fails(const CliResult& r) {
  EXPECT_NE(r.exit_code, 0) << r.describe();
  EXPECT_FALSE(r.timed_out) << r.describe();
  EXPECT_FALSE(r.err.empty()) << "errors go to stderr\n" << r.describe();
}

TEST_F(AdminCommandsTest, WorkspacesCreate) {
  json::value v = run_json({"workspaces", "create", "--name", "Acme Ltd"});
  ASSERT_TRUE(v.is_object());
  EXPECT_EQ(keys_of(v), key_set({"id", "name", "created_at"}));
  EXPECT_TRUE(is_uuid(str(v.at("id"))));
  EXPECT_EQ(v.at("name"), "Acme Ltd");
  EXPECT_TRUE(is_timestamp(str(v.at("created_at"))));
  std::string second = create_workspace("Acme Ltd");
  EXPECT_NE(second, str(v.at("id")));
}

TEST_F(AdminCommandsTest, KeysCreate) {
  std::string ws = create_workspace();
  json::value v = run_json(
      {"keys", "create", "--workspace", ws, "--name", "CRM sync", "--scopes", "read,write"});
  ASSERT_TRUE(v.is_object());
  EXPECT_EQ(keys_of(v), kKeyCreated);
  EXPECT_TRUE(is_uuid(str(v.at("id"))));
  EXPECT_TRUE(std::regex_match(str(v.at("key")), std::regex("^fc_live_[A-Za-z0-9]{40}$")))
      << v.at("key");
  EXPECT_EQ(v.at("name"), "CRM sync");
  EXPECT_EQ(as_set(v.at("scopes")), (std::set<std::string>{"read", "write"}));
  EXPECT_EQ(v.at("allowed_ips"), json::array());
  EXPECT_TRUE(is_timestamp(str(v.at("created_at"))));
}

TEST_F(AdminCommandsTest, KeysAreDistinct) {
  std::string ws = create_workspace();
  std::set<std::string> keys;
  std::set<std::string> randoms;
  for (int i = 0; i < 6; ++i) {
    std::string key = str(create_key(ws).at("key"));
    keys.insert(key);
    randoms.insert(key.substr(8, 8));
  }
  EXPECT_EQ(keys.size(), 6u);
  EXPECT_EQ(randoms.size(), 6u);
}

TEST_F(AdminCommandsTest, AnyNonEmptySubsetOfReadWriteIsAScopeSet) {
  std::string ws = create_workspace();
  EXPECT_EQ(as_set(create_key(ws, "read").at("scopes")), (std::set<std::string>{"read"}));
  EXPECT_EQ(as_set(create_key(ws, "write").at("scopes")), (std::set<std::string>{"write"}));
  EXPECT_EQ(as_set(create_key(ws, "write,read").at("scopes")),
            (std::set<std::string>{"read", "write"}));
  for (const auto& s : strings_of(create_key(ws, "read").at("scopes"))) EXPECT_EQ(s, "read");
}

TEST_F(AdminCommandsTest, BadScopesAreRejected) {
  std::string ws = create_workspace();
  for (const char* scopes : {"", "admin", "read,admin", "delete"}) {
    SCOPED_TRACE(scopes);
    expect_fails(
        run({"keys", "create", "--workspace", ws, "--name", "k", "--scopes", scopes, "--json"}));
  }
  EXPECT_EQ(run_json({"keys", "list", "--workspace", ws}), json::array());
}

TEST_F(AdminCommandsTest, AllowIpTakesAddressesAndRangesAsGiven) {
  std::string ws = create_workspace();
  std::vector<std::string> ips = {"10.0.0.1", "10.0.0.0/8", "::1", "2001:db8::/32",
                                  "192.168.1.0/24"};
  json::object k = create_key(ws, "read", ips);
  EXPECT_EQ(strings_of(k.at("allowed_ips")), ips);
  json::value listed = run_json({"keys", "list", "--workspace", ws});
  ASSERT_EQ(listed.as_array().size(), 1u);
  EXPECT_EQ(strings_of(listed.as_array()[0].at("allowed_ips")), ips);
}

TEST_F(AdminCommandsTest, BadAllowIpIsRejected) {
  std::string ws = create_workspace();
  for (const char* ip : {"999.1.1.1", "10.0.0.0/33", "not-an-ip", "::1/129", "10.0.0.1/", "1.2.3",
                         "10.0.0.0/-1", ""}) {
    SCOPED_TRACE(ip);
    expect_fails(run({"keys", "create", "--workspace", ws, "--name", "k", "--scopes", "read",
                      "--allow-ip", ip, "--json"}));
  }
  EXPECT_EQ(run_json({"keys", "list", "--workspace", ws}), json::array());
}

TEST_F(AdminCommandsTest, UnknownWorkspaceIsAnError) {
  std::string file = write_file("empty.jsonl", "");
  create_workspace();  // the database exists, the workspace does not
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"keys", "create", "--workspace", kAbsentId, "--name", "k",
                                 "--scopes", "read"},
        std::vector<std::string>{"keys", "list", "--workspace", kAbsentId},
        std::vector<std::string>{"reps", "add", "--workspace", kAbsentId, "--first-name", "F",
                                 "--last-name", "L", "--email", "f@x.io"},
        std::vector<std::string>{"agents", "add", "--workspace", kAbsentId, "--first-name", "F",
                                 "--last-name", "L", "--email", "f@x.io"},
        std::vector<std::string>{"departments", "add", "--workspace", kAbsentId, "--name", "D"},
        std::vector<std::string>{"import", "--workspace", kAbsentId, file},
        std::vector<std::string>{"keys", "list", "--workspace", "not-a-uuid"}}) {
    SCOPED_TRACE(args[0] + " " + args[1]);
    std::vector<std::string> with_json = args;
    with_json.push_back("--json");
    expect_fails(run(with_json));
  }
}

TEST_F(AdminCommandsTest, KeysListShowsPrefixAndRevokedAtButNeverTheKey) {
  std::string ws = create_workspace();
  json::object a = create_key(ws, "read,write", {"10.0.0.0/8"});
  json::object b = create_key(ws, "read");
  std::string other_ws = create_workspace("Other");
  create_key(other_ws);

  CliResult r = run({"keys", "list", "--workspace", ws, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(r.out.find(str(a.at("key"))), std::string::npos) << "plaintext key listed";
  EXPECT_EQ(r.out.find(str(b.at("key"))), std::string::npos) << "plaintext key listed";
  auto listed = parse_json(r.out);
  ASSERT_TRUE(listed && listed->is_array()) << r.describe();
  ASSERT_EQ(listed->as_array().size(), 2u);
  for (const auto& item : listed->as_array()) {
    EXPECT_EQ(keys_of(item), kKeyListed) << json::serialize(item);
    const json::object& created = str(item.at("id")) == str(a.at("id")) ? a : b;
    EXPECT_EQ(item.at("id"), created.at("id"));
    EXPECT_EQ(item.at("name"), created.at("name"));
    EXPECT_EQ(as_set(item.at("scopes")), as_set(created.at("scopes")));
    EXPECT_EQ(item.at("allowed_ips"), created.at("allowed_ips"));
    EXPECT_EQ(item.at("created_at"), created.at("created_at"));
    EXPECT_EQ(item.at("prefix"), json::value(str(created.at("key")).substr(0, 12)));
    EXPECT_TRUE(item.at("revoked_at").is_null());
  }
}

TEST_F(AdminCommandsTest, KeysRevokeAndRevokingTwiceKeepsTheFirstTime) {
  std::string ws = create_workspace();
  json::object k = create_key(ws);
  std::string id = str(k.at("id"));
  json::value first = run_json({"keys", "revoke", "--id", id});
  EXPECT_EQ(keys_of(first), key_set({"id", "revoked_at"}));
  EXPECT_EQ(first.at("id"), json::value(id));
  ASSERT_TRUE(is_timestamp(str(first.at("revoked_at"))));
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  json::value second = run_json({"keys", "revoke", "--id", id});
  EXPECT_EQ(second.at("revoked_at"), first.at("revoked_at"));
  json::value listed = run_json({"keys", "list", "--workspace", ws});
  ASSERT_EQ(listed.as_array().size(), 1u);
  EXPECT_EQ(listed.as_array()[0].at("revoked_at"), first.at("revoked_at"));
}

TEST_F(AdminCommandsTest, RevokingAnUnknownKeyIsAnError) {
  create_workspace();
  expect_fails(run({"keys", "revoke", "--id", kAbsentId, "--json"}));
  expect_fails(run({"keys", "revoke", "--id", "nope", "--json"}));
}

TEST_F(AdminCommandsTest, KeysUsageOfAFreshKey) {
  std::string ws = create_workspace();
  std::string id = str(create_key(ws).at("id"));
  json::value u = run_json({"keys", "usage", "--id", id});
  EXPECT_EQ(keys_of(u), key_set({"today", "this_week", "this_month", "by_endpoint", "error_rate",
                                 "rate_limited"}));
  EXPECT_EQ(u.at("today"), 0);
  EXPECT_EQ(u.at("by_endpoint"), json::object());
}

TEST_F(AdminCommandsTest, RepsAgentsAndDepartmentsAdd) {
  std::string ws = create_workspace();
  json::value rep = run_json({"reps", "add", "--workspace", ws, "--first-name", "Rita",
                              "--last-name", "Rep", "--email", "rita@example.com"});
  json::value agent = run_json({"agents", "add", "--workspace", ws, "--first-name", "Alan",
                                "--last-name", "Turing", "--email", "alan@example.com"});
  json::value dept = run_json({"departments", "add", "--workspace", ws, "--name", "Sales"});
  for (const auto* v : {&rep, &agent, &dept}) {
    ASSERT_TRUE(v->is_object()) << json::serialize(*v);
    ASSERT_TRUE(v->as_object().contains("id")) << json::serialize(*v);
    EXPECT_TRUE(is_uuid(str(v->at("id")))) << json::serialize(*v);
  }
  EXPECT_NE(rep.at("id"), agent.at("id"));
}

TEST_F(AdminCommandsTest, TheDatabaseNeverContainsAPlaintextKey) {
  std::string ws = create_workspace();
  std::vector<std::string> keys;
  for (const char* scopes : {"read,write", "read", "write"}) {
    keys.push_back(str(create_key(ws, scopes).at("key")));
  }
  // Use the keys through a server, revoke one, and let usage be written.
  {
    HttpClient c(server().host(), server().port());
    for (const auto& key : keys) {
      c.request("GET", "/api/v1/external/leads", std::nullopt,
                {{"Authorization", "Bearer " + key}});
    }
    run_json({"keys", "revoke", "--id", str(create_key(ws).at("id"))});
    run_json({"keys", "list", "--workspace", ws});
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  keys.push_back(str(create_key(ws).at("key")));
  const std::vector<StoredBytes> stored = stored_bytes(db_url());
  bool keys_stored = false;  // the scan reads real rows: key prefixes are kept for display
  for (const auto& [origin, bytes] : stored) {
    keys_stored = keys_stored || bytes.find("fc_live_") != std::string::npos;
    for (const auto& key : keys) {
      EXPECT_EQ(bytes.find(key.substr(8)), std::string::npos)
          << origin << " contains the secret part of " << key;
      EXPECT_EQ(bytes.find(key.substr(12)), std::string::npos)
          << origin << " contains the non-prefix part of " << key;
    }
  }
  EXPECT_TRUE(keys_stored) << "no stored key prefix found: the scan read nothing real";
}

TEST_F(AdminCommandsTest, DatabaseDefaultsToTheLeadlineDbEnvironmentVariable) {
  std::string env_db = "sqlite:" + (dir() / "from-env.db").string();
  CliOptions with_env;
  with_env.env = {{"LEADLINE_DB", env_db}};
  auto v = run_cli_json({"workspaces", "create", "--name", "E"}, with_env);
  std::string ws = str(v.at("id"));
  EXPECT_TRUE(std::filesystem::exists(dir() / "from-env.db"));
  // The workspace lives in that database and not in this test's --db one.
  EXPECT_EQ(run_cli_json({"keys", "list", "--workspace", ws, "--db", env_db}), json::array());
  EXPECT_EQ(run_cli_json({"keys", "list", "--workspace", ws}, with_env), json::array());
  create_workspace();
  expect_fails(run({"keys", "list", "--workspace", ws, "--json"}));
}

TEST_F(AdminCommandsTest, DatabaseDefaultsToDataLeadlineDbInTheWorkingDirectory) {
  std::filesystem::create_directories(dir() / "cwd" / "data");
  CliOptions options;
  options.env = {{"LEADLINE_DB", ""}};
  options.cwd = dir() / "cwd";
  auto v = run_cli_json({"workspaces", "create", "--name", "D"}, options);
  EXPECT_TRUE(std::filesystem::exists(dir() / "cwd" / "data" / "leadline.db"));
  EXPECT_EQ(run_cli_json({"keys", "list", "--workspace", str(v.at("id"))}, options), json::array());
}

}  // namespace
}  // namespace leadline_test
