// `leadline serve --demo`: a small, deterministic sample workspace (people, leads, contacts,
// conversations), a read+write key and a dashboard user, so that a newcomer can try the API and
// the dashboard at once.
#pragma once

#include <boost/json/object.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "store/database.hpp"

namespace leadline::cli {

// The demo's dashboard user and the generated password, which only the seed ever knows.
struct DemoDashboardUser {
  std::string email;
  std::string password;
};

struct DemoSeed {
  domain::WorkspaceId workspace{};
  std::string workspace_name{};
  bool created = false;                          // false: the database already had a workspace
  std::optional<std::string> key{};              // the plaintext key, only when created
  std::optional<DemoDashboardUser> dashboard{};  // only when created
};

// Seeds only a database without any workspace; otherwise points at the existing one.
Result<DemoSeed> seed_demo_data(store::Database& db);

// What to tell the operator, given the address the server listens on: JSON for --json, and
// the same as lines for a terminal.
struct DemoSummary {
  boost::json::object json;
  std::vector<std::string> lines;
};
DemoSummary describe_demo(const DemoSeed& seed, const std::string& listen_address);

}  // namespace leadline::cli
