// `leadline users add|list|reset|remove`: the dashboard users of a workspace. Output shapes,
// setup links (their token, --public-url and LEADLINE_PUBLIC_URL), passwords from stdin and the
// password rule, the e-mail rule and its per-workspace uniqueness, refusals (stderr, non-zero
// exit), --json and --help, and that the database keeps neither a password nor a setup token.

#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <string>
#include <vector>

#include "support/cli_fixture.hpp"
#include "support/database_probe.hpp"

namespace leadline_test {
namespace {

const KeySet kUserAdded = {"id", "workspace_id", "email", "name", "created_at", "setup_url"};
const KeySet kUserListed = {"id", "workspace_id", "email", "name", "created_at", "last_sign_in_at"};
const std::string kDefaultBase = "http://127.0.0.1:8080";
const std::string kPassword = "correct horse battery staple";

// `url` is `base` + /dashboard/setup?token= + 64 lowercase hex digits.
::testing::AssertionResult is_setup_url(const json::value& url, const std::string& base) {
  if (!url.is_string()) return ::testing::AssertionFailure() << "not a string: " << url;
  const std::string text = str(url);
  const std::string prefix = base + "/dashboard/setup?token=";
  static const std::regex token("[0-9a-f]{64}");
  if (!text.starts_with(prefix) || !std::regex_match(text.substr(prefix.size()), token)) {
    return ::testing::AssertionFailure() << text << " is not " << prefix << "<64 hex digits>";
  }
  return ::testing::AssertionSuccess();
}

std::string token_of(const json::value& setup_url) {
  const std::string text = str(setup_url);
  return text.substr(text.find("token=") + 6);
}

void expect_refused(const CliResult& r, int exit_code, const std::string& mentions) {
  EXPECT_EQ(r.exit_code, exit_code) << r.describe();
  EXPECT_TRUE(r.out.empty()) << "nothing on stdout when refused\n" << r.describe();
  EXPECT_NE(r.err.find(mentions), std::string::npos) << "stderr should name " << mentions << "\n"
                                                     << r.describe();
}

class UsersTest : public CliTest {
 protected:
  // `leadline users args...`, without the LEADLINE_PUBLIC_URL of whoever runs the tests (a
  // test's own env entries come after, so they win).
  CliResult users(std::vector<std::string> args, CliOptions options = {}) {
    prepare(args, options);
    return run(args, options);
  }
  json::value users_json(std::vector<std::string> args, CliOptions options = {}) {
    prepare(args, options);
    return run_json(args, options);
  }
  json::object add(const std::string& ws, const std::string& email,
                   std::vector<std::string> extra = {}, CliOptions options = {}) {
    std::vector<std::string> args = {"add", "--workspace", ws, "--email", email, "--name", "Ada"};
    args.insert(args.end(), extra.begin(), extra.end());
    return as_obj(users_json(args, std::move(options)));
  }
  json::object add_with_password(const std::string& ws, const std::string& email) {
    CliOptions options;
    options.stdin_data = kPassword + "\n";
    return add(ws, email, {"--password-stdin"}, options);
  }
  json::array list(const std::string& ws) {
    return as_arr(users_json({"list", "--workspace", ws}));
  }

 private:
  static void prepare(std::vector<std::string>& args, CliOptions& options) {
    args.insert(args.begin(), "users");
    options.env.insert(options.env.begin(), {"LEADLINE_PUBLIC_URL", ""});
  }
};

TEST_F(UsersTest, AddPrintsTheUserAndAOneTimeSetupLink) {
  const std::string ws = create_workspace();
  const json::object user = as_obj(users_json(
      {"add", "--workspace", ws, "--email", "  Ada@Example.com ", "--name", " Ada Lovelace "}));
  EXPECT_EQ(keys_of(user), kUserAdded);
  EXPECT_TRUE(is_uuid_v7(str(user.at("id")))) << user;
  EXPECT_EQ(user.at("workspace_id"), json::value(ws));
  EXPECT_EQ(user.at("email"), "Ada@Example.com");  // trimmed, case kept
  EXPECT_EQ(user.at("name"), "Ada Lovelace");
  EXPECT_TRUE(is_timestamp(str(user.at("created_at")))) << user;
  EXPECT_TRUE(is_setup_url(user.at("setup_url"), kDefaultBase));

  const json::object other = add(ws, "grace@example.com");
  EXPECT_TRUE(is_setup_url(other.at("setup_url"), kDefaultBase));
  EXPECT_NE(token_of(other.at("setup_url")), token_of(user.at("setup_url")));
  EXPECT_NE(other.at("id"), user.at("id"));
}

TEST_F(UsersTest, SetupLinksUseThePublicUrlFromTheFlagElseTheEnvironment) {
  const std::string ws = create_workspace();
  EXPECT_TRUE(is_setup_url(
      add(ws, "a@example.com", {"--public-url", "https://crm.example.com/"}).at("setup_url"),
      "https://crm.example.com"));  // the trailing slash is dropped
  EXPECT_TRUE(
      is_setup_url(add(ws, "b@example.com", {"--public-url=http://[::1]:9000"}).at("setup_url"),
                   "http://[::1]:9000"));

  CliOptions with_env;
  with_env.env = {{"LEADLINE_PUBLIC_URL", "https://leads.example.org:8443"}};
  EXPECT_TRUE(is_setup_url(add(ws, "c@example.com", {}, with_env).at("setup_url"),
                           "https://leads.example.org:8443"));
  EXPECT_TRUE(is_setup_url(
      add(ws, "d@example.com", {"--public-url", "http://10.0.0.5:8080"}, with_env).at("setup_url"),
      "http://10.0.0.5:8080"))
      << "the flag wins over the variable";
  const json::object reset =
      as_obj(users_json({"reset", "--id", str(add(ws, "e@example.com").at("id"))}, with_env));
  EXPECT_TRUE(is_setup_url(reset.at("setup_url"), "https://leads.example.org:8443"));
}

TEST_F(UsersTest, ABadPublicUrlIsRefusedNamingWhereItCameFrom) {
  const std::string ws = create_workspace();
  const std::string user = str(add(ws, "ada@example.com").at("id"));
  for (const char* bad : {"ftp://crm.example.com", "crm.example.com", "http://", "http://x/path",
                          "http://x/?a=1", "http://x#top", "http://user:pw@x",
                          "http://x:", "http://x:0", "http://x:70000", "http://bad_host", ""}) {
    SCOPED_TRACE(bad);
    expect_refused(users({"add", "--workspace", ws, "--email", "new@example.com", "--name", "N",
                          "--public-url", bad, "--json"}),
                   2, "--public-url");
    expect_refused(users({"reset", "--id", user, "--public-url", bad, "--json"}), 2,
                   "--public-url");
  }
  CliOptions with_env;
  with_env.env = {{"LEADLINE_PUBLIC_URL", "http://x/dashboard"}};
  expect_refused(
      users({"add", "--workspace", ws, "--email", "new@example.com", "--name", "N", "--json"},
            with_env),
      2, "LEADLINE_PUBLIC_URL");
  EXPECT_EQ(list(ws).size(), 1u) << "nothing added by a refused command";
}

TEST_F(UsersTest, AddWithPasswordFromStdinHasNoSetupLink) {
  const std::string ws = create_workspace();
  const json::object user = add_with_password(ws, "ada@example.com");
  EXPECT_EQ(keys_of(user), kUserAdded);
  EXPECT_TRUE(user.at("setup_url").is_null()) << user;
  EXPECT_EQ(user.at("email"), "ada@example.com");
}

// 12 to 128 characters, after one trailing newline (CRLF counting as one) is dropped: each
// boundary case below would land on the other side if the newline were kept or two were dropped.
TEST_F(UsersTest, APasswordFromStdinMustFollowThePasswordRule) {
  const std::string ws = create_workspace();
  int added = 0;
  const auto add_with = [&](const std::string& stdin_data) {
    CliOptions options;
    options.stdin_data = stdin_data;
    return users({"add", "--workspace", ws, "--email", "u" + std::to_string(added) + "@example.com",
                  "--name", "U", "--password-stdin", "--json"},
                 options);
  };
  for (const std::string& accepted :
       {repeat("a", 12), repeat("a", 12) + "\n", repeat("a", 128) + "\n", repeat("é", 128),
        repeat("a", 128) + "\r\n", repeat("a", 11) + "\n\n"}) {
    SCOPED_TRACE(accepted.size());
    const CliResult r = add_with(accepted);
    EXPECT_EQ(r.exit_code, 0) << r.describe();
    added += r.exit_code == 0 ? 1 : 0;
  }
  for (const std::string& refused :
       {std::string(), repeat("a", 11), repeat("a", 11) + "\n", repeat("a", 129),
        repeat("a", 128) + "\n\n", std::string("\xff\xfe")}) {
    SCOPED_TRACE(refused.size());
    const CliResult r = add_with(refused);
    expect_refused(r, 2, "--password-stdin");
    EXPECT_NE(r.err.find(refused == "\xff\xfe" ? "UTF-8" : "12 to 128 characters"),
              std::string::npos)
        << r.describe();
  }
  EXPECT_EQ(list(ws).size(), static_cast<std::size_t>(added));
}

TEST_F(UsersTest, EmailsAreUniquePerWorkspaceCaseInsensitively) {
  const std::string ws = create_workspace();
  const json::object first = add(ws, "Ada@Example.com");
  for (const char* again : {"Ada@Example.com", "ada@example.com", " ADA@EXAMPLE.COM "}) {
    SCOPED_TRACE(again);
    expect_refused(users({"add", "--workspace", ws, "--email", again, "--name", "Other", "--json"}),
                   1, "already has a dashboard user with the e-mail");
    CliOptions options;
    options.stdin_data = kPassword;
    expect_refused(users({"add", "--workspace", ws, "--email", again, "--name", "Other",
                          "--password-stdin", "--json"},
                         options),
                   1, "already has a dashboard user with the e-mail");
  }
  ASSERT_EQ(list(ws).size(), 1u);
  EXPECT_EQ(list(ws)[0].at("id"), first.at("id"));

  const std::string other_ws = create_workspace("Other");
  EXPECT_EQ(add(other_ws, "ada@example.com").at("workspace_id"), json::value(other_ws))
      << "another workspace may have a user with the same address";
}

TEST_F(UsersTest, TheEmailRuleAndTheNameAreChecked) {
  const std::string ws = create_workspace();
  for (const char* bad :
       {"", "   ", "not-an-email", "a@b", "a b@example.com", "a@@example.com", "a@-example.com"}) {
    SCOPED_TRACE(bad);
    expect_refused(users({"add", "--workspace", ws, "--email", bad, "--name", "N", "--json"}), 2,
                   "--email");
  }
  for (const std::string& bad : {std::string("  "), repeat("é", 201)}) {
    expect_refused(
        users({"add", "--workspace", ws, "--email", "n@example.com", "--name", bad, "--json"}), 2,
        "--name");
  }
  EXPECT_EQ(list(ws).size(), 0u);
  const json::object longest = as_obj(users_json(
      {"add", "--workspace", ws, "--email", "n@example.com", "--name", repeat("é", 200)}));
  EXPECT_EQ(longest.at("name"), json::value(repeat("é", 200)));
  EXPECT_EQ(add(ws, "zoë@bücher.example").at("email"), "zoë@bücher.example");
}

TEST_F(UsersTest, AnUnknownWorkspaceIsRefused) {
  create_workspace();  // the database exists, the workspace does not
  expect_refused(
      users({"add", "--workspace", kAbsentId, "--email", "a@example.com", "--name", "A", "--json"}),
      1, "no workspace with id " + kAbsentId);
  CliOptions options;
  options.stdin_data = kPassword;
  expect_refused(users({"add", "--workspace", kAbsentId, "--email", "a@example.com", "--name", "A",
                        "--password-stdin", "--json"},
                       options),
                 1, "no workspace with id " + kAbsentId);
  expect_refused(users({"list", "--workspace", kAbsentId, "--json"}), 1, "no workspace");
  expect_refused(users({"list", "--workspace", "not-a-uuid", "--json"}), 2, "--workspace");
}

TEST_F(UsersTest, ListShowsTheWorkspacesUsersOldestFirst) {
  const std::string ws = create_workspace();
  EXPECT_EQ(list(ws), json::array());
  const json::object ada = add(ws, "ada@example.com");
  const json::object grace = add_with_password(ws, "grace@example.com");
  add(create_workspace("Other"), "alan@example.com");

  const json::array listed = list(ws);
  ASSERT_EQ(listed.size(), 2u) << listed;
  for (std::size_t i = 0; i < 2; ++i) {
    const json::object& added = i == 0 ? ada : grace;
    const json::value& item = listed[i];
    EXPECT_EQ(keys_of(item), kUserListed) << item;
    for (const char* field : {"id", "workspace_id", "email", "name", "created_at"}) {
      EXPECT_EQ(item.at(field), added.at(field)) << field;
    }
    EXPECT_TRUE(item.at("last_sign_in_at").is_null()) << item;
  }
}

TEST_F(UsersTest, ResetIssuesANewSetupLink) {
  const std::string ws = create_workspace();
  const json::object ada = add(ws, "ada@example.com");
  const json::object grace = add_with_password(ws, "grace@example.com");
  for (const json::object* user : {&ada, &grace}) {
    const json::object reset = as_obj(users_json({"reset", "--id", str(user->at("id"))}));
    EXPECT_EQ(keys_of(reset), key_set({"id", "setup_url"}));
    EXPECT_EQ(reset.at("id"), user->at("id"));
    EXPECT_TRUE(is_setup_url(reset.at("setup_url"), kDefaultBase));
    EXPECT_NE(reset.at("setup_url"), user->at("setup_url"));
  }
  const json::object again = as_obj(users_json({"reset", "--id", str(ada.at("id"))}));
  EXPECT_NE(token_of(again.at("setup_url")), token_of(ada.at("setup_url")));
  EXPECT_EQ(list(ws).size(), 2u) << "a reset keeps the user";

  expect_refused(users({"reset", "--id", kAbsentId, "--json"}), 1, "no dashboard user");
  expect_refused(users({"reset", "--id", "nope", "--json"}), 2, "--id");
}

TEST_F(UsersTest, RemoveDeletesTheUserOnce) {
  const std::string ws = create_workspace();
  const std::string id = str(add(ws, "ada@example.com").at("id"));
  const json::object removed = as_obj(users_json({"remove", "--id", id}));
  EXPECT_EQ(removed, (json::object{{"id", id}, {"removed", true}}));
  EXPECT_EQ(list(ws), json::array());
  expect_refused(users({"remove", "--id", id, "--json"}), 1, "no dashboard user with id " + id);
  expect_refused(users({"remove", "--id", kAbsentId, "--json"}), 1, "no dashboard user");
  expect_refused(users({"remove", "--id", "nope", "--json"}), 2, "--id");
  EXPECT_EQ(add(ws, "ada@example.com").at("email"), "ada@example.com")
      << "the address is free again";
}

TEST_F(UsersTest, JsonIsExactlyOneValueAndTheHumanFormShowsTheLinkOnce) {
  const std::string ws = create_workspace();
  const std::vector<std::string> add_args = {"add",           "--workspace", ws, "--email",
                                             "a@example.com", "--name",      "A"};
  std::vector<std::string> with_json = add_args;
  with_json.push_back("--json");
  const CliResult json_run = users(with_json);
  ASSERT_EQ(json_run.exit_code, 0) << json_run.describe();
  const auto value = parse_json(json_run.out);
  ASSERT_TRUE(value && value->is_object()) << json_run.describe();
  EXPECT_EQ(std::count(json_run.out.begin(), json_run.out.end(), '\n'), 1) << json_run.out;
  EXPECT_TRUE(json_run.err.empty()) << json_run.describe();
  const std::string id = str(value->at("id"));
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"list", "--workspace", ws, "--json"},
        std::vector<std::string>{"reset", "--id", id, "--json"},
        std::vector<std::string>{"remove", "--id", id, "--json"}}) {
    SCOPED_TRACE(args[0]);
    const CliResult r = users(args);
    ASSERT_EQ(r.exit_code, 0) << r.describe();
    EXPECT_TRUE(parse_json(r.out)) << r.describe();
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  }

  std::vector<std::string> human = add_args;
  human[4] = "b@example.com";
  const CliResult r = users(human);
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_FALSE(parse_json(r.out)) << r.describe();
  static const std::regex link(kDefaultBase + "/dashboard/setup\\?token=[0-9a-f]{64}");
  EXPECT_TRUE(std::regex_search(r.out, link)) << r.describe();
  EXPECT_NE(r.out.find("for 24 hours"), std::string::npos) << r.describe();
  EXPECT_NE(r.out.find("shown only this once"), std::string::npos) << r.describe();
}

TEST_F(UsersTest, TheDatabaseKeepsNeitherPasswordsNorSetupTokens) {
  const std::string ws = create_workspace();
  const std::string token = token_of(add(ws, "ada@example.com").at("setup_url"));
  add_with_password(ws, "grace@example.com");
  const std::string reset_token = token_of(
      users_json({"reset", "--id", str(add(ws, "alan@example.com").at("id"))}).at("setup_url"));
  bool hash_stored = false;  // the scan reads real rows: the password's Argon2id hash is kept
  for (const auto& [origin, bytes] : stored_bytes(db_url())) {
    hash_stored = hash_stored || bytes.find("$argon2id$") != std::string::npos;
    EXPECT_EQ(bytes.find(kPassword), std::string::npos) << origin << " holds the password";
    for (const auto& secret : {token, reset_token}) {
      EXPECT_EQ(bytes.find(secret), std::string::npos) << origin << " holds a setup token";
    }
  }
  EXPECT_TRUE(hash_stored) << "no password hash found: the scan read nothing real";
}

TEST_F(UsersTest, HelpDescribesTheCommands) {
  const CliResult group = run_cli({"users", "--help"});
  ASSERT_EQ(group.exit_code, 0) << group.describe();
  for (const char* command : {"users add", "users list", "users reset", "users remove"}) {
    EXPECT_NE(group.out.find(command), std::string::npos) << command << "\n" << group.describe();
  }
  const CliResult add_help = run_cli({"users", "add", "--help"});
  ASSERT_EQ(add_help.exit_code, 0) << add_help.describe();
  for (const char* text :
       {"--workspace", "--email", "--name", "--password-stdin", "--public-url",
        "LEADLINE_PUBLIC_URL", "http://127.0.0.1:8080", "24 hours", "12 to 128 characters"}) {
    EXPECT_NE(add_help.out.find(text), std::string::npos) << text << "\n" << add_help.describe();
  }
  const CliResult reset_help = run_cli({"users", "reset", "--help"});
  ASSERT_EQ(reset_help.exit_code, 0) << reset_help.describe();
  for (const char* text : {"--id", "--public-url", "24 hours"}) {
    EXPECT_NE(reset_help.out.find(text), std::string::npos) << text << "\n"
                                                            << reset_help.describe();
  }
}

}  // namespace
}  // namespace leadline_test
