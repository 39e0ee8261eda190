// Implementation of the CLI fixture.

#include "support/cli_fixture.hpp"

#include "support/test_backend.hpp"

#include <fstream>
#include <iostream>
#include <stdexcept>

namespace leadline_test {

void CliTest::SetUp() {
  dir_ = std::make_unique<TempDir>();
  db_url_ = fresh_database_url(dir_->path());
}

void CliTest::TearDown() {
  client_.reset();
  if (server_) {
    if (HasFailure()) std::cerr << "[fixture] server output:\n" << server_->output() << '\n';
    server_.reset();
  }
  drop_fresh_database(db_url_);
}

CliResult CliTest::run(std::vector<std::string> args, const CliOptions& options) {
  args.push_back("--db");
  args.push_back(db_url_);
  return run_cli(args, options);
}

json::value CliTest::run_json(std::vector<std::string> args, const CliOptions& options) {
  args.push_back("--db");
  args.push_back(db_url_);
  return run_cli_json(args, options);
}

std::string CliTest::create_workspace(const std::string& name) {
  return str(as_obj(run_json({"workspaces", "create", "--name", name})).at("id"));
}

json::object CliTest::create_key(const std::string& workspace, const std::string& scopes,
                                 const std::vector<std::string>& allow_ips) {
  std::vector<std::string> args = {"keys",   "create", "--workspace", workspace,
                                   "--name", "k",      "--scopes",    scopes};
  for (const auto& ip : allow_ips) {
    args.push_back("--allow-ip");
    args.push_back(ip);
  }
  return as_obj(run_json(args));
}

std::string CliTest::write_file(const std::string& name, const std::string& text) {
  auto path = dir_->path() / name;
  std::ofstream os(path, std::ios::binary);
  os << text;
  return path.string();
}

ServerProcess& CliTest::server() {
  if (!server_) {
    ServerOptions options;
    options.db_url = db_url_;
    options.extra_args = {"--rate-limit", "1000000/60s"};
    server_ = std::make_unique<ServerProcess>(options);
  }
  return *server_;
}

json::value CliTest::api_get(const std::string& path, const std::string& key) {
  if (!client_) client_ = std::make_unique<HttpClient>(server().host(), server().port());
  HttpResponse r = client_->request("GET", "/api/v1/external" + path, std::nullopt,
                                    {{"Authorization", "Bearer " + key}});
  if (r.status != 200 || !r.json)
    throw std::runtime_error("GET " + path + " failed\n" + r.describe());
  return r.data();
}

std::string jsonl(const std::vector<json::value>& lines) {
  std::string out;
  for (const auto& l : lines) out += json::serialize(l) + "\n";
  return out;
}

}  // namespace leadline_test
