// Workspaces and the people records the operator manages in them: sales reps, chat agents and
// departments.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "domain/records.hpp"
#include "store/operation_runner.hpp"

namespace leadline::store {

class WorkspaceStore {
 public:
  explicit WorkspaceStore(OperationRunner& runner) : runner_(runner) {}

  domain::Workspace create(const std::string& name);
  bool exists(const domain::WorkspaceId& ws);
  std::vector<domain::Workspace> list();

  domain::Person add_rep(const domain::WorkspaceId& ws, const domain::Person& rep);
  domain::Person add_agent(const domain::WorkspaceId& ws, const domain::Person& agent);
  domain::Department add_department(const domain::WorkspaceId& ws, const std::string& name);

 private:
  OperationRunner& runner_;
};

// Reference checks that writes of other stores run inside their own transactions.
bool rep_in_workspace(sql::Connection& conn, const domain::WorkspaceId& ws,
                      const domain::RepId& id);
bool agent_in_workspace(sql::Connection& conn, const domain::WorkspaceId& ws,
                        const domain::AgentId& id);
bool department_in_workspace(sql::Connection& conn, const domain::WorkspaceId& ws,
                             const domain::DepartmentId& id);

// What a conversation shows of its agent; nothing when the agent is not the workspace's.
struct AgentPeople {
  std::optional<std::string> first_name, last_name, email;
};
std::optional<AgentPeople> find_agent_people(sql::Connection& conn, const domain::WorkspaceId& ws,
                                             const domain::AgentId& id);

}  // namespace leadline::store
