// The gtest fixture of the CLI suites: a fresh database per test, `leadline` runs against it,
// and (on demand) a server on the same database to observe results through the API.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include "support/checks.hpp"
#include "support/cli_runner.hpp"
#include "support/http_client.hpp"
#include "support/server_process.hpp"
#include "support/test_ids.hpp"

namespace leadline_test {

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  const std::string& db_url() const { return db_url_; }
  std::filesystem::path db_file() const { return dir_->path() / "leadline.db"; }
  const std::filesystem::path& dir() const { return dir_->path(); }

  // `leadline args... --db <this test's database>`.
  CliResult run(std::vector<std::string> args, const CliOptions& options = {});
  // The same with --json; throws unless it succeeded with exactly one JSON value on stdout.
  json::value run_json(std::vector<std::string> args, const CliOptions& options = {});

  std::string create_workspace(const std::string& name = "W");
  json::object create_key(const std::string& workspace, const std::string& scopes = "read,write",
                          const std::vector<std::string>& allow_ips = {});
  // Writes text to a file in the test's directory and returns its path.
  std::string write_file(const std::string& name, const std::string& text);

  // A server on this test's database, started on first use.
  ServerProcess& server();
  // GET {base}/path with the key, asserting a 200 list or single envelope; returns `data`.
  json::value api_get(const std::string& path, const std::string& key);

 private:
  std::unique_ptr<TempDir> dir_;
  std::string db_url_;
  std::unique_ptr<ServerProcess> server_;
  std::unique_ptr<HttpClient> client_;
};

// JSON Lines text of the values, one per line.
std::string jsonl(const std::vector<json::value>& lines);

}  // namespace leadline_test
