// Implementation of the API fixture: suite server lifecycle, per-test workspace, helpers.

#include "support/fixture.hpp"

#include <fstream>
#include <iostream>
#include <stdexcept>

namespace leadline_test {

void ApiTest::SetUpTestSuite() {
  start_suite_server({"--rate-limit", "1000000/60s"});
}

void ApiTest::TearDownTestSuite() {
  server_.reset();
}

void ApiTest::start_suite_server(std::vector<std::string> extra_args) {
  server_.reset();
  server_args_ = std::move(extra_args);
  ServerOptions options;
  options.extra_args = server_args_;
  server_ = std::make_unique<ServerProcess>(options);
}

std::string ApiTest::api_path(std::string_view path) {
  std::string full;
  full.reserve(std::char_traits<char>::length(kBase) + path.size());
  full.append(kBase).append(path);
  return full;
}

ServerProcess& ApiTest::server() {
  if (!server_) throw std::runtime_error("the suite's leadline server is not running");
  return *server_;
}

void ApiTest::SetUp() {
  if (server_ && !server_->running()) {
    std::cerr << "[fixture] the server had exited; its output:\n"
              << server_->output() << "\n[fixture] restarting it\n";
    start_suite_server(server_args_);
  } else if (!server_) {
    start_suite_server(server_args_.empty()
                           ? std::vector<std::string>{"--rate-limit", "1000000/60s"}
                           : server_args_);
  }
  scratch_ = std::make_unique<TempDir>();
  ws_.id = create_workspace("T");
  ws_.rw = make_key(ws_.id, "read,write");
}

void ApiTest::TearDown() {
  if (HasFailure() && server_) {
    std::string out = server_->output();
    if (out.size() > 3000) out = "..." + out.substr(out.size() - 3000);
    std::cerr << "[fixture] server output (tail):\n" << out << '\n';
  }
  client_.reset();
  ws_ro_.reset();
  ws_wo_.reset();
}

HttpClient& ApiTest::client() {
  if (!client_) client_ = std::make_unique<HttpClient>(server().host(), server().port());
  return *client_;
}

HttpResponse ApiTest::send(std::string_view method, const std::string& path,
                           std::optional<std::string> body, Headers headers,
                           std::optional<std::string> key) {
  std::string k = key.value_or(ws_.rw.key);
  if (!k.empty()) headers.emplace_back("Authorization", "Bearer " + k);
  return client().request(method, std::string(kBase) + path, std::move(body), headers);
}

HttpResponse ApiTest::get(const std::string& path, std::optional<std::string> key) {
  return send("GET", path, std::nullopt, {}, std::move(key));
}

HttpResponse ApiTest::post(const std::string& path, const json::value& body,
                           std::optional<std::string> key) {
  return send("POST", path, json::serialize(body), {}, std::move(key));
}

HttpResponse ApiTest::patch(const std::string& path, const json::value& body,
                            std::optional<std::string> key) {
  return send("PATCH", path, json::serialize(body), {}, std::move(key));
}

HttpResponse ApiTest::del(const std::string& path, std::optional<std::string> key) {
  return send("DELETE", path, std::nullopt, {}, std::move(key));
}

CliResult ApiTest::cli(std::vector<std::string> args, const CliOptions& options) {
  args.push_back("--db");
  args.push_back(server().db_url());
  return run_cli(args, options);
}

json::value ApiTest::cli_json(std::vector<std::string> args, const CliOptions& options) {
  args.push_back("--db");
  args.push_back(server().db_url());
  return run_cli_json(args, options);
}

WorkspaceKeys ApiTest::make_workspace(const std::string& name) {
  WorkspaceKeys ws;
  ws.id = create_workspace(name);
  ws.rw = make_key(ws.id, "read,write");
  ws.ro = make_key(ws.id, "read");
  ws.wo = make_key(ws.id, "write");
  return ws;
}

std::string ApiTest::create_workspace(const std::string& name) {
  return str(as_obj(cli_json({"workspaces", "create", "--name", name})).at("id"));
}

KeyInfo ApiTest::make_key(const std::string& workspace, const std::string& scopes) {
  json::object k = create_key(workspace, scopes, {}, "key-" + scopes);
  return KeyInfo{str(k.at("id")), str(k.at("key"))};
}

const KeyInfo& ApiTest::ws_ro() {
  if (!ws_ro_) ws_ro_ = make_key(ws_.id, "read");
  return *ws_ro_;
}

const KeyInfo& ApiTest::ws_wo() {
  if (!ws_wo_) ws_wo_ = make_key(ws_.id, "write");
  return *ws_wo_;
}

json::object ApiTest::create_key(const std::string& workspace, const std::string& scopes,
                                 const std::vector<std::string>& allow_ips,
                                 const std::string& name) {
  std::vector<std::string> args = {"keys",   "create", "--workspace", workspace,
                                   "--name", name,     "--scopes",    scopes};
  for (const auto& ip : allow_ips) {
    args.push_back("--allow-ip");
    args.push_back(ip);
  }
  return as_obj(cli_json(args));
}

std::string ApiTest::add_rep(const std::string& workspace, const std::string& first,
                             const std::string& last, const std::string& email) {
  json::value v = cli_json({"reps", "add", "--workspace", workspace, "--first-name", first,
                            "--last-name", last, "--email", email});
  return str(as_obj(v).at("id"));
}

std::string ApiTest::add_agent(const std::string& workspace, const std::string& first,
                               const std::string& last, const std::string& email) {
  json::value v = cli_json({"agents", "add", "--workspace", workspace, "--first-name", first,
                            "--last-name", last, "--email", email});
  return str(as_obj(v).at("id"));
}

std::string ApiTest::add_department(const std::string& workspace, const std::string& name) {
  json::value v = cli_json({"departments", "add", "--workspace", workspace, "--name", name});
  return str(as_obj(v).at("id"));
}

void ApiTest::revoke_key(const std::string& key_id) {
  cli_json({"keys", "revoke", "--id", key_id});
}

json::object ApiTest::import_lines(const std::string& workspace,
                                   const std::vector<json::value>& lines) {
  auto file = scratch_->path() / ("import-" + std::to_string(++import_counter_) + ".jsonl");
  {
    std::ofstream os(file);
    for (const auto& line : lines) os << json::serialize(line) << '\n';
  }
  return as_obj(cli_json({"import", "--workspace", workspace, file.string()}));
}

json::object ApiTest::create_lead(const json::object& body, std::optional<std::string> key) {
  HttpResponse r = post("/leads", body, std::move(key));
  if (r.status != 201 || !r.json || !r.data().is_object()) {
    throw std::runtime_error("creating a lead failed\n" + r.describe());
  }
  return r.data().as_object();
}

json::object ApiTest::create_contact(const json::object& body, std::optional<std::string> key) {
  HttpResponse r = post("/contacts", body, std::move(key));
  if (r.status != 201 || !r.json || !r.data().is_object()) {
    throw std::runtime_error("creating a contact failed\n" + r.describe());
  }
  return r.data().as_object();
}

json::object ApiTest::get_one(const std::string& resource, const std::string& id,
                              std::optional<std::string> key) {
  HttpResponse r = get("/" + resource + "?id=" + id, std::move(key));
  if (r.status != 200 || !r.json || !r.data().is_object()) {
    throw std::runtime_error("GET one " + resource + " failed\n" + r.describe());
  }
  return r.data().as_object();
}

json::array ApiTest::list_all(const std::string& resource, const std::string& query,
                              std::optional<std::string> key, int limit) {
  json::array all;
  std::string cursor;
  for (int page = 0; page < 1000; ++page) {
    std::string target = "/" + resource + "?limit=" + std::to_string(limit);
    if (!query.empty()) target += "&" + query;
    if (!cursor.empty()) target += "&cursor=" + url_encode(cursor);
    HttpResponse r = get(target, key);
    if (r.status != 200 || !is_list_envelope(r)) {
      throw std::runtime_error("listing " + resource + " failed\n" + r.describe());
    }
    for (const auto& item : r.data().as_array()) all.push_back(item);
    const auto& p = r.object().at("pagination").as_object();
    if (!p.at("has_more").as_bool()) return all;
    cursor = str(p.at("next_cursor"));
  }
  throw std::runtime_error("listing " + resource + " did not end after 1000 pages");
}

std::vector<std::string> ApiTest::conversation_ids(std::optional<std::string> key) {
  return ids_of(list_all("conversations", "", std::move(key)));
}

json::object conversation_line(const json::object& visitor, const json::array& messages,
                               const std::string& created_at, const std::string& status,
                               const json::array& tags, const std::string& source) {
  return json::object{{"type", "conversation"}, {"source", source},         {"status", status},
                      {"tags", tags},           {"created_at", created_at}, {"visitor", visitor},
                      {"agent_id", nullptr},    {"department_id", nullptr}, {"messages", messages}};
}

json::object message_line(const std::string& content, const std::string& created_at,
                          const std::string& sender_type, const std::string& sender_name) {
  json::object m{{"sender_type", sender_type}, {"content", content},
                 {"attachments", nullptr},     {"status", "delivered"},
                 {"created_at", created_at},   {"sender_name", sender_name}};
  if (sender_type == "bot") m["sender_name"] = nullptr;
  return m;
}

}  // namespace leadline_test
