// The gtest fixture of the API suites: one `leadline serve` per test suite, a fresh workspace
// with a read+write key per test (read-only and write-only keys on first use), and request /
// operator helpers.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
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

using namespace std::chrono_literals;

struct KeyInfo {
  std::string id;
  std::string key;
};

struct WorkspaceKeys {
  std::string id;
  KeyInfo rw;  // scopes read,write
  KeyInfo ro;  // scopes read
  KeyInfo wo;  // scopes write
};

// The workspace each test gets, made with its read+write key only: every key is one CLI process,
// and most tests need no other (ApiTest::ws_ro() and ws_wo() make those on first use).
struct TestWorkspace {
  std::string id;
  KeyInfo rw;  // scopes read,write
};

class ApiTest : public ::testing::Test {
 public:
  // Starts the suite's server with a rate limit high enough never to interfere.
  static void SetUpTestSuite();
  static void TearDownTestSuite();

  static constexpr const char* kBase = "/api/v1/external";
  // kBase + path, appended rather than with operator+ (GCC 12's -Warray-bounds misfires on
  // `std::string(kBase) + "..."` once inlined).
  static std::string api_path(std::string_view path);

 protected:
  // Starts (or restarts) the server shared by the tests of the running suite.
  static void start_suite_server(std::vector<std::string> extra_args);
  static ServerProcess& server();

  void SetUp() override;
  void TearDown() override;

  // --- HTTP to the suite's server. `key`: nullopt = ws_.rw.key, "" = no Authorization. ---
  HttpClient& client();
  HttpResponse send(std::string_view method, const std::string& path,
                    std::optional<std::string> body = std::nullopt, Headers headers = {},
                    std::optional<std::string> key = std::nullopt);
  HttpResponse get(const std::string& path, std::optional<std::string> key = std::nullopt);
  HttpResponse post(const std::string& path, const json::value& body,
                    std::optional<std::string> key = std::nullopt);
  HttpResponse patch(const std::string& path, const json::value& body,
                     std::optional<std::string> key = std::nullopt);
  HttpResponse del(const std::string& path, std::optional<std::string> key = std::nullopt);

  // --- The operator command against the server's database. ---
  CliResult cli(std::vector<std::string> args, const CliOptions& options = {});
  json::value cli_json(std::vector<std::string> args, const CliOptions& options = {});
  WorkspaceKeys make_workspace(const std::string& name = "T");
  std::string create_workspace(const std::string& name);  // no keys; returns its id
  KeyInfo make_key(const std::string& workspace, const std::string& scopes);
  // The test workspace's read-only and write-only keys, made on first use.
  const KeyInfo& ws_ro();
  const KeyInfo& ws_wo();
  json::object create_key(const std::string& workspace, const std::string& scopes,
                          const std::vector<std::string>& allow_ips = {},
                          const std::string& name = "key");
  std::string add_rep(const std::string& workspace, const std::string& first,
                      const std::string& last, const std::string& email);
  std::string add_agent(const std::string& workspace, const std::string& first,
                        const std::string& last, const std::string& email);
  std::string add_department(const std::string& workspace, const std::string& name);
  void revoke_key(const std::string& key_id);
  // Writes the lines (one JSON value each) to a file and runs `leadline import`; returns counts.
  json::object import_lines(const std::string& workspace, const std::vector<json::value>& lines);

  // --- API shortcuts that assert success and return `data`. ---
  json::object create_lead(const json::object& body, std::optional<std::string> key = {});
  json::object create_contact(const json::object& body, std::optional<std::string> key = {});
  json::object get_one(const std::string& resource, const std::string& id,
                       std::optional<std::string> key = {});
  // Every item of a list, following next_cursor; `query` without leading '?', may be empty.
  json::array list_all(const std::string& resource, const std::string& query = "",
                       std::optional<std::string> key = {}, int limit = 100);
  // The ids of conversations of the workspace of `key`, in default order.
  std::vector<std::string> conversation_ids(std::optional<std::string> key = {});

  TestWorkspace ws_;
  std::unique_ptr<TempDir> scratch_;  // per-test files (import input)

 private:
  static inline std::unique_ptr<ServerProcess> server_;
  static inline std::vector<std::string> server_args_;
  std::unique_ptr<HttpClient> client_;
  std::optional<KeyInfo> ws_ro_;
  std::optional<KeyInfo> ws_wo_;
  int import_counter_ = 0;
};

// A conversation import line with one visitor and the given messages.
json::object conversation_line(const json::object& visitor, const json::array& messages,
                               const std::string& created_at, const std::string& status = "open",
                               const json::array& tags = {}, const std::string& source = "widget");
json::object message_line(const std::string& content, const std::string& created_at,
                          const std::string& sender_type = "visitor",
                          const std::string& sender_name = "Visitor");

}  // namespace leadline_test
