// Seeding of the demo workspace and the instructions printed with it.
#include "cli/demo_data.hpp"

#include <boost/json/array.hpp>

#include "auth/api_key.hpp"
#include "auth/password_hash.hpp"
#include "auth/random_text.hpp"
#include "cli/demo_records.hpp"
#include "cli/this_binary.hpp"

namespace leadline::cli {

namespace {

constexpr const char* kDemoWorkspaceName = "Demo";
constexpr const char* kDemoUserEmail = "demo@example.com";
constexpr const char* kDemoUserName = "Demo User";

// Reps go on through update_lead because a lead's create fields (and so the import) carry no
// rep: the same path an API client would use.
void assign_reps(store::Database& db, const domain::WorkspaceId& ws,
                 const std::vector<domain::Person>& reps) {
  store::LeadListQuery query;
  query.sort = {store::LeadSortField::kCreatedAt, store::SortDirection::kAsc};
  query.page.limit = 100;
  const auto leads = db.leads().list(ws, query).items;
  for (std::size_t i = 0; i < leads.size(); ++i) {
    if (i % 4 == 0) continue;  // some leads stay unassigned
    domain::LeadPatch patch;
    patch.assigned_rep_id = domain::FieldUpdate<domain::RepId>::set({reps[i % reps.size()].id});
    db.leads().update(ws, leads[i].id, patch);
  }
}

// A read+write key; returns the plaintext, which only the seed ever sees.
std::string add_demo_key(store::Database& db, const domain::WorkspaceId& ws) {
  const std::string key = auth::generate_api_key();
  domain::NewApiKey demo_key;
  demo_key.workspace_id = ws;
  demo_key.name = "demo";
  demo_key.prefix = auth::display_prefix(key);
  demo_key.key_hash = auth::hash_api_key(key);
  demo_key.scopes.add(domain::Scope::kRead).add(domain::Scope::kWrite);
  db.keys().create(demo_key);
  return key;
}

// A user with a generated password rather than a setup link: `make run` should need no second
// step before signing in.
DemoDashboardUser add_demo_user(store::Database& db, const domain::WorkspaceId& ws) {
  DemoDashboardUser user{.email = kDemoUserEmail, .password = auth::generate_password()};
  // The workspace was created just now, so no other user can hold the e-mail.
  db.users().add({.workspace_id = ws,
                  .email = user.email,
                  .name = kDemoUserName,
                  .password_hash = auth::hash_password(user.password),
                  .setup_token_hash = std::nullopt,
                  .setup_expires_at = {}});
  return user;
}

// The workspace named like the demo one, else the oldest: the one an operator most likely means.
const domain::Workspace& existing_demo_workspace(const std::vector<domain::Workspace>& workspaces) {
  for (const auto& ws : workspaces) {
    if (ws.name == kDemoWorkspaceName) return ws;
  }
  return workspaces.front();
}

// A wildcard listen address is not one to send requests to; loopback reaches the same server.
std::string reachable_address(const std::string& listen_address) {
  if (listen_address.starts_with("0.0.0.0:")) return "127.0.0.1" + listen_address.substr(7);
  if (listen_address.starts_with("[::]:")) return "[::1]" + listen_address.substr(4);
  return listen_address;
}

}  // namespace

Result<DemoSeed> seed_demo_data(store::Database& db) {
  const auto workspaces = db.workspaces().list();
  if (!workspaces.empty()) {
    const auto& existing = existing_demo_workspace(workspaces);
    return DemoSeed{.workspace = existing.id, .workspace_name = existing.name};
  }

  const auto ws = db.workspaces().create(kDemoWorkspaceName).id;
  std::vector<domain::Person> reps;
  for (const auto& rep : demo_reps()) reps.push_back(db.workspaces().add_rep(ws, rep));
  std::vector<domain::AgentId> agents;
  for (const auto& agent : demo_agents())
    agents.push_back({db.workspaces().add_agent(ws, agent).id});
  std::vector<domain::DepartmentId> departments;
  for (const auto& name : demo_departments())
    departments.push_back(db.workspaces().add_department(ws, name).id);

  const auto imported =
      db.imports().apply(ws, demo_import_items(domain::now(), agents, departments));
  if (const auto* failed = std::get_if<store::ImportFailure>(&imported)) {
    return failure("creating the demo data failed at item " + std::to_string(failed->line) + ": " +
                   failed->message);
  }
  assign_reps(db, ws, reps);

  return DemoSeed{.workspace = ws,
                  .workspace_name = kDemoWorkspaceName,
                  .created = true,
                  .key = add_demo_key(db, ws),
                  .dashboard = add_demo_user(db, ws)};
}

DemoSummary describe_demo(const DemoSeed& seed, const std::string& listen_address) {
  DemoSummary summary;
  summary.json["workspace_id"] = seed.workspace.value;
  summary.json["created"] = seed.created;
  if (!seed.created || !seed.key || !seed.dashboard) {
    // `leadline` is rarely on PATH (make run serves ./build/leadline), so the command names
    // this binary as the operator can run it from here.
    const std::string create_key = command_to_run_this_binary() + " keys create --workspace " +
                                   seed.workspace.value + " --name NAME --scopes read,write";
    summary.json["key"] = nullptr;
    summary.json["create_key"] = create_key;
    summary.json["dashboard"] = nullptr;
    const std::string what = seed.workspace_name == kDemoWorkspaceName
                                 ? "Demo data exists (workspace "
                                 : "The database already has workspaces, so no demo data was "
                                   "added (workspace ";
    summary.lines.push_back(what + seed.workspace.value + "); create a key with: " + create_key);
    return summary;
  }

  const std::string origin = "http://" + reachable_address(listen_address);
  const std::string base = origin + "/api/v1/external";
  const std::string sign_in = origin + "/dashboard/sign-in";
  const std::string auth_header = "-H 'Authorization: Bearer " + *seed.key + "'";
  const std::vector<std::string> curls = {
      "curl -s " + auth_header + " '" + base + "/leads?limit=5&sort=lead_score:desc'",
      "curl -s -X POST " + auth_header + " -H 'Content-Type: application/json' -d " +
          "'{\"visitor_name\":\"Ada Lovelace\",\"visitor_email\":\"ada@example.com\"}' '" + base +
          "/leads'",
  };
  boost::json::array curl_json;
  for (const auto& line : curls) curl_json.emplace_back(line);
  summary.json["key"] = *seed.key;
  summary.json["curl"] = std::move(curl_json);
  summary.json["dashboard"] = {
      {"url", sign_in}, {"email", seed.dashboard->email}, {"password", seed.dashboard->password}};

  summary.lines = {
      "Demo workspace created: " + seed.workspace.value,
      "API key (read+write; shown only now): " + *seed.key,
      "Dashboard: " + sign_in,
      "Dashboard e-mail: " + seed.dashboard->email,
      "Dashboard password (shown only now): " + seed.dashboard->password,
      "Try:",
      "  " + curls[0],
      "  " + curls[1],
      "API reference: " + origin + "/docs",
  };
  return summary;
}

}  // namespace leadline::cli
