// `leadline serve --config FILE` and `--print-config`: flag > environment > file > default for
// every setting (shown by --print-config with where each value came from), a bad file refused
// at start naming the file and the key, secrets masked, and the file's db key really used.

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "support/cli_fixture.hpp"

namespace leadline_test {
namespace {

// Every serve variable unset, so the machine's environment cannot leak into the results.
EnvOverrides clean_env(EnvOverrides extra = {}) {
  EnvOverrides env = {{"LEADLINE_DB", ""},
                      {"LEADLINE_LISTEN", ""},
                      {"LEADLINE_RATE_LIMIT", ""},
                      {"LEADLINE_REDIS", ""},
                      {"LEADLINE_TRUST_PROXY", ""},
                      {"LEADLINE_THREADS", ""},
                      {"LEADLINE_MAX_CONNECTIONS", ""},
                      {"LEADLINE_DB_POOL_SIZE", ""},
                      {"LEADLINE_HEADER_TIMEOUT_MS", ""},
                      {"LEADLINE_BODY_TIMEOUT_MS", ""},
                      {"LEADLINE_IDLE_TIMEOUT_MS", ""},
                      {"LEADLINE_WRITE_TIMEOUT_MS", ""},
                      {"LEADLINE_LOG_FORMAT", ""},
                      {"LEADLINE_LOG_LEVEL", ""},
                      {"LEADLINE_ADMIN_LISTEN", ""},
                      {"LEADLINE_DEMO", ""},
                      {"LEADLINE_CONFIG", ""}};
  for (auto& [name, value] : extra) {
    bool replaced = false;
    for (auto& entry : env) {
      if (entry.first == name) {
        entry.second = value;
        replaced = true;
      }
    }
    if (!replaced) env.emplace_back(name, value);
  }
  return env;
}

CliResult serve_cli(std::vector<std::string> args, EnvOverrides env = {}) {
  CliOptions options;
  options.env = clean_env(std::move(env));
  options.timeout = std::chrono::seconds(10);
  args.insert(args.begin(), "serve");
  return run_cli(args, options);
}

// The line of `key` in --print-config output ("" when absent).
std::string config_line(const std::string& out, const std::string& key) {
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(key + " = ", 0) == 0) return line;
  }
  return "";
}

class ConfigTest : public CliTest {};

TEST_F(ConfigTest, PrintConfigShowsTheDefaults) {
  const CliResult r = serve_cli({"--print-config"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(config_line(r.out, "listen"), R"(listen = "127.0.0.1:8080"  # default)");
  EXPECT_EQ(config_line(r.out, "rate-limit"), R"(rate-limit = "100/60s"  # default)");
  EXPECT_EQ(config_line(r.out, "db"), R"(db = "sqlite:./data/leadline.db"  # default)");
  EXPECT_EQ(config_line(r.out, "max-connections"), "max-connections = 10000  # default");
  EXPECT_EQ(config_line(r.out, "db-pool-size"), "db-pool-size = 16  # default");
  EXPECT_EQ(config_line(r.out, "trust-proxy"), "trust-proxy = []  # default");
  EXPECT_EQ(config_line(r.out, "log-format"), R"(log-format = "text"  # default)");
  EXPECT_EQ(config_line(r.out, "log-level"), R"(log-level = "info"  # default)");
  EXPECT_NE(r.out.find("# admin-listen is not set"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("# redis is not set"), std::string::npos) << r.out;
}

TEST_F(ConfigTest, FlagBeatsEnvironmentBeatsFileBeatsDefault) {
  const std::string file = write_file("leadline.toml", R"(
listen = "127.0.0.1:1111"
rate-limit = "1/1s"
threads = 3
max-connections = 77
db-pool-size = 8
trust-proxy = ["10.0.0.0/8", "192.168.0.0/16"]
log-format = "json"
)");
  const CliResult r = serve_cli({"--config", file, "--print-config", "--threads", "7"},
                                {{"LEADLINE_RATE_LIMIT", "2/2s"}, {"LEADLINE_THREADS", "5"}});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(config_line(r.out, "threads"), "threads = 7  # flag");
  EXPECT_EQ(config_line(r.out, "rate-limit"),
            R"(rate-limit = "2/2s"  # env (LEADLINE_RATE_LIMIT))");
  EXPECT_EQ(config_line(r.out, "listen"), R"(listen = "127.0.0.1:1111"  # file)");
  EXPECT_EQ(config_line(r.out, "max-connections"), "max-connections = 77  # file");
  EXPECT_EQ(config_line(r.out, "db-pool-size"), "db-pool-size = 8  # file");
  EXPECT_EQ(config_line(r.out, "trust-proxy"),
            R"(trust-proxy = ["10.0.0.0/8", "192.168.0.0/16"]  # file)");
  EXPECT_EQ(config_line(r.out, "log-format"), R"(log-format = "json"  # file)");
  EXPECT_EQ(config_line(r.out, "header-timeout-ms"), "header-timeout-ms = 10000  # default");
}

// Every setting has its variable, the --demo switch too; a switch's variable must say which.
TEST_F(ConfigTest, TheDemoSwitchHasItsVariable) {
  const CliResult on = serve_cli({"--print-config"}, {{"LEADLINE_DEMO", "true"}});
  ASSERT_EQ(on.exit_code, 0) << on.describe();
  EXPECT_EQ(config_line(on.out, "demo"), "demo = true  # env (LEADLINE_DEMO)");
  const CliResult off = serve_cli({"--print-config"});
  EXPECT_EQ(config_line(off.out, "demo"), "demo = false  # default");
  const CliResult bad = serve_cli({"--print-config"}, {{"LEADLINE_DEMO", "yes"}});
  EXPECT_NE(bad.exit_code, 0) << bad.describe();
  EXPECT_NE(bad.err.find("LEADLINE_DEMO must be true or false"), std::string::npos)
      << bad.describe();
}

TEST_F(ConfigTest, TheConfigFileCanBeNamedByTheEnvironment) {
  const std::string file = write_file("env.toml", "max-connections = 12\n");
  const CliResult r = serve_cli({"--print-config"}, {{"LEADLINE_CONFIG", file}});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(config_line(r.out, "max-connections"), "max-connections = 12  # file");
}

TEST_F(ConfigTest, BadFilesAreRefusedNamingTheFileAndTheKey) {
  struct Case {
    const char* text;
    const char* message;
  };
  for (const Case& c : {
           Case{"nope = 1\n", R"(key "nope": unknown key)"},
           Case{"threads = \"four\"\n", R"(key "threads": must be a whole number)"},
           Case{"listen = 8080\n", R"(key "listen": must be a string)"},
           Case{"trust-proxy = [1, 2]\n", R"(key "trust-proxy": must be an array of strings)"},
           Case{"listen = \"nonsense\"\n", R"(key "listen": must be HOST:PORT)"},
           Case{"threads = 0\n", R"(key "threads": must be a whole number from 1)"},
           Case{"db-pool-size = 0\n", R"(key "db-pool-size": must be a whole number from 1)"},
           Case{"log-level = \"loud\"\n", R"(key "log-level": must be debug, info, warn or error)"},
       }) {
    SCOPED_TRACE(c.text);
    const std::string file = write_file("bad.toml", c.text);
    // Validation comes before anything is printed or served.
    const CliResult r = serve_cli({"--config", file, "--print-config"});
    EXPECT_FALSE(r.timed_out) << r.describe();
    EXPECT_EQ(r.exit_code, 2) << r.describe();
    EXPECT_NE(r.err.find("config " + file + ": " + c.message), std::string::npos) << r.describe();
  }
}

TEST_F(ConfigTest, APoolSizeOutOfRangeIsRefusedNamingWhereItCameFrom) {
  CliResult r = serve_cli({"--db-pool-size", "1001", "--print-config"});
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_NE(r.err.find(R"(--db-pool-size must be a whole number from 1 to 1000, got "1001")"),
            std::string::npos)
      << r.describe();
  r = serve_cli({"--print-config"}, {{"LEADLINE_DB_POOL_SIZE", "many"}});
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_NE(
      r.err.find(R"(LEADLINE_DB_POOL_SIZE must be a whole number from 1 to 1000, got "many")"),
      std::string::npos)
      << r.describe();
}

TEST_F(ConfigTest, SyntaxErrorsAndMissingFilesAreRefused) {
  const std::string broken = write_file("broken.toml", "listen = \n");
  CliResult r = serve_cli({"--config", broken, "--print-config"});
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_NE(r.err.find("config " + broken + ": line 1"), std::string::npos) << r.describe();

  r = serve_cli({"--config", (dir() / "missing.toml").string(), "--print-config"});
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_NE(r.err.find("missing.toml"), std::string::npos) << r.describe();
}

TEST_F(ConfigTest, PrintConfigMasksPasswords) {
  const std::string file = write_file("secrets.toml", R"(
db = "postgres://leadline:s3cr3t-pg@db.example:5432/leadline"
redis = "redis://:s3cr3t-redis@127.0.0.1:6379/2"
)");
  const CliResult r = serve_cli({"--config", file, "--print-config"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(config_line(r.out, "db"),
            R"(db = "postgres://leadline:***@db.example:5432/leadline"  # file)");
  EXPECT_EQ(config_line(r.out, "redis"), R"(redis = "redis://:***@127.0.0.1:6379/2"  # file)");
  EXPECT_EQ(r.out.find("s3cr3t"), std::string::npos) << r.out;
  EXPECT_EQ(r.err.find("s3cr3t"), std::string::npos) << r.err;

  const CliResult env = serve_cli({"--print-config"},
                                  {{"LEADLINE_DB", "postgres://u:pw-in-env@h/db?sslmode=disable"}});
  ASSERT_EQ(env.exit_code, 0) << env.describe();
  EXPECT_EQ(config_line(env.out, "db"),
            R"(db = "postgres://u:***@h/db?sslmode=disable"  # env (LEADLINE_DB))");
}

TEST_F(ConfigTest, TheFilesDatabaseIsTheOneServed) {
  // A database under a regular file cannot be opened: serve names it and stops.
  const std::string missing = write_file("not-a-directory", "x") + "/x.db";
  const std::string file = write_file("db.toml", "db = \"sqlite:" + missing + "\"\n");
  const CliResult r = serve_cli({"--config", file, "--listen", "127.0.0.1:0"});
  EXPECT_FALSE(r.timed_out) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  EXPECT_NE(r.err.find("cannot open database sqlite:" + missing), std::string::npos)
      << r.describe();
}

}  // namespace
}  // namespace leadline_test
