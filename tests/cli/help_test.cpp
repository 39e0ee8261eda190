// `leadline --help` and `--help` of every subcommand, and the refusal of unknown commands,
// unknown options and missing required options (stderr, non-zero exit).

#include <gtest/gtest.h>

#include <string>

#include "support/cli_fixture.hpp"

namespace leadline_test {
namespace {

class HelpTest : public CliTest {};

TEST_F(HelpTest, TopLevelHelpListsTheCommands) {
  CliResult r = run_cli({"--help"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  std::string text = r.out + r.err;
  for (const char* command :
       {"serve", "workspaces", "keys", "users", "reps", "agents", "departments", "import"}) {
    EXPECT_NE(text.find(command), std::string::npos) << command << "\n" << r.describe();
  }
}

TEST_F(HelpTest, EverySubcommandPrintsHelpNamingItsOptions) {
  struct Case {
    std::vector<std::string> command;
    std::vector<std::string> options;
  };
  const std::vector<Case> cases = {
      {{"serve"}, {"--listen", "--rate-limit", "--trust-proxy"}},
      {{"workspaces", "create"}, {"--name"}},
      {{"keys", "create"}, {"--workspace", "--name", "--scopes", "--allow-ip"}},
      {{"keys", "list"}, {"--workspace"}},
      {{"keys", "revoke"}, {"--id"}},
      {{"keys", "usage"}, {"--id"}},
      {{"users", "add"}, {"--workspace", "--email", "--name", "--password-stdin", "--public-url"}},
      {{"users", "list"}, {"--workspace"}},
      {{"users", "reset"}, {"--id", "--public-url"}},
      {{"users", "remove"}, {"--id"}},
      {{"reps", "add"}, {"--workspace", "--first-name", "--last-name", "--email"}},
      {{"agents", "add"}, {"--workspace", "--first-name", "--last-name", "--email"}},
      {{"departments", "add"}, {"--workspace", "--name"}},
      {{"import"}, {"--workspace"}},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = c.command;
    std::string label;
    for (const auto& a : args) label += a + " ";
    SCOPED_TRACE(label);
    args.push_back("--help");
    CliOptions options;
    options.timeout = std::chrono::seconds(10);
    CliResult r = run_cli(args, options);
    ASSERT_EQ(r.exit_code, 0) << r.describe();
    std::string text = r.out + r.err;
    EXPECT_FALSE(text.empty());
    for (const auto& option : c.options) {
      EXPECT_NE(text.find(option), std::string::npos) << option << "\n" << r.describe();
    }
    for (const char* common : {"--db", "--json"}) {
      EXPECT_NE(text.find(common), std::string::npos) << common << "\n" << r.describe();
    }
  }
}

TEST_F(HelpTest, UnknownCommandsAndOptionsFailOnStderr) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"frobnicate"}, std::vector<std::string>{"keys", "frobnicate"},
        std::vector<std::string>{"workspaces", "create", "--name", "X", "--bogus-flag"}}) {
    CliResult r = run(args);
    EXPECT_NE(r.exit_code, 0) << r.describe();
    EXPECT_FALSE(r.err.empty()) << r.describe();
  }
}

TEST_F(HelpTest, MissingRequiredOptionsFailOnStderr) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"workspaces", "create", "--json"},
        std::vector<std::string>{"keys", "create", "--name", "k", "--scopes", "read", "--json"},
        std::vector<std::string>{"keys", "revoke", "--json"},
        std::vector<std::string>{"keys", "usage", "--json"},
        std::vector<std::string>{"users", "add", "--email", "a@example.com", "--name", "A",
                                 "--json"},
        std::vector<std::string>{"users", "reset", "--json"}}) {
    CliResult r = run(args);
    EXPECT_NE(r.exit_code, 0) << r.describe();
    EXPECT_FALSE(r.err.empty()) << r.describe();
  }
}

}  // namespace
}  // namespace leadline_test
