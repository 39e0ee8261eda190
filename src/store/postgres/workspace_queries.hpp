// Workspaces and the records an operator adds to one: reps, agents, departments; plus the
// same-workspace checks that PATCH and import make before referencing them.
#pragma once

#include <string>
#include <vector>

#include "domain/records.hpp"
#include "store/postgres/pg_connection.hpp"

namespace leadline::store::postgres {

domain::Workspace insert_workspace(Connection& conn, const std::string& name,
                                   domain::Timestamp now);
bool workspace_exists(Connection& conn, const domain::WorkspaceId& ws);
std::vector<domain::Workspace> select_workspaces(Connection& conn);

enum class PersonTable { kReps, kAgents };
domain::Person insert_person(Connection& conn, PersonTable table, const domain::WorkspaceId& ws,
                             const domain::Person& person, domain::Timestamp now);
domain::Department insert_department(Connection& conn, const domain::WorkspaceId& ws,
                                     const std::string& name, domain::Timestamp now);

bool rep_in_workspace(Connection& conn, const domain::WorkspaceId& ws, const domain::RepId& id);
bool agent_in_workspace(Connection& conn, const domain::WorkspaceId& ws, const domain::AgentId& id);
bool department_in_workspace(Connection& conn, const domain::WorkspaceId& ws,
                             const domain::DepartmentId& id);

}  // namespace leadline::store::postgres
