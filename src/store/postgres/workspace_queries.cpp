// SQL for workspaces, reps, agents and departments.
#include "store/postgres/workspace_queries.hpp"

#include "domain/uuid.hpp"
#include "store/new_records.hpp"
#include "store/record_readers.hpp"

namespace leadline::store::postgres {

namespace {

bool exists_in_workspace(Connection& conn, const std::string& sql, const domain::WorkspaceId& ws,
                         const std::string& id) {
  return conn.query(sql, Params().text(ws.value).text(id)).rows() > 0;
}

}  // namespace

domain::Workspace insert_workspace(Connection& conn, const std::string& name,
                                   domain::Timestamp now) {
  domain::Workspace ws{{domain::new_uuid_v7(now.unix_ms)}, name, now};
  conn.query("INSERT INTO workspaces (id, name, created_at) VALUES ($1, $2, $3)",
             Params().text(ws.id.value).text(ws.name).int64(now.unix_ms));
  return ws;
}

bool workspace_exists(Connection& conn, const domain::WorkspaceId& ws) {
  return conn.query("SELECT 1 FROM workspaces WHERE id = $1", Params().text(ws.value)).rows() > 0;
}

std::vector<domain::Workspace> select_workspaces(Connection& conn) {
  const Result r =
      conn.query("SELECT id, name, created_at FROM workspaces ORDER BY created_at, id");
  std::vector<domain::Workspace> out;
  for (int i = 0; i < r.rows(); ++i) out.push_back(read_workspace(Row(r, i)));
  return out;
}

domain::Person insert_person(Connection& conn, PersonTable table, const domain::WorkspaceId& ws,
                             const domain::Person& person, domain::Timestamp now) {
  const domain::Person out = new_person_record(person, now);
  // The table name comes from a closed enum, never from input.
  const std::string sql = std::string("INSERT INTO ") +
                          (table == PersonTable::kReps ? "reps" : "agents") +
                          " (id, workspace_id, first_name, last_name, email, created_at)"
                          " VALUES ($1, $2, $3, $4, $5, $6)";
  conn.query(sql, Params()
                      .text(out.id)
                      .text(ws.value)
                      .text(out.first_name)
                      .text(out.last_name)
                      .text(out.email)
                      .int64(now.unix_ms));
  return out;
}

domain::Department insert_department(Connection& conn, const domain::WorkspaceId& ws,
                                     const std::string& name, domain::Timestamp now) {
  domain::Department d{{domain::new_uuid_v7(now.unix_ms)}, name, now};
  conn.query("INSERT INTO departments (id, workspace_id, name, created_at) VALUES ($1, $2, $3, $4)",
             Params().text(d.id.value).text(ws.value).text(d.name).int64(now.unix_ms));
  return d;
}

bool rep_in_workspace(Connection& conn, const domain::WorkspaceId& ws, const domain::RepId& id) {
  return exists_in_workspace(conn, "SELECT 1 FROM reps WHERE workspace_id = $1 AND id = $2", ws,
                             id.value);
}

bool agent_in_workspace(Connection& conn, const domain::WorkspaceId& ws,
                        const domain::AgentId& id) {
  return exists_in_workspace(conn, "SELECT 1 FROM agents WHERE workspace_id = $1 AND id = $2", ws,
                             id.value);
}

bool department_in_workspace(Connection& conn, const domain::WorkspaceId& ws,
                             const domain::DepartmentId& id) {
  return exists_in_workspace(conn, "SELECT 1 FROM departments WHERE workspace_id = $1 AND id = $2",
                             ws, id.value);
}

}  // namespace leadline::store::postgres
