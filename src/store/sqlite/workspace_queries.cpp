// SQL for workspaces, reps, agents and departments.
#include "store/sqlite/workspace_queries.hpp"

#include "domain/uuid.hpp"
#include "store/new_records.hpp"
#include "store/record_readers.hpp"

namespace leadline::store::sqlite {

namespace {

bool exists_in_workspace(Connection& conn, const std::string& sql, const domain::WorkspaceId& ws,
                         const std::string& id) {
  auto q = conn.query(sql);
  q.bind_text(ws.value).bind_text(id);
  return q.step();
}

}  // namespace

domain::Workspace insert_workspace(Connection& conn, const std::string& name,
                                   domain::Timestamp now) {
  domain::Workspace ws{{domain::new_uuid_v7(now.unix_ms)}, name, now};
  auto q = conn.query("INSERT INTO workspaces (id, name, created_at) VALUES (?, ?, ?)");
  q.bind_text(ws.id.value).bind_text(ws.name).bind_int(now.unix_ms).run();
  return ws;
}

bool workspace_exists(Connection& conn, const domain::WorkspaceId& ws) {
  auto q = conn.query("SELECT 1 FROM workspaces WHERE id = ?");
  q.bind_text(ws.value);
  return q.step();
}

std::vector<domain::Workspace> select_workspaces(Connection& conn) {
  auto q = conn.query("SELECT id, name, created_at FROM workspaces ORDER BY created_at, id");
  std::vector<domain::Workspace> out;
  while (q.step()) out.push_back(read_workspace(q));
  return out;
}

domain::Person insert_person(Connection& conn, PersonTable table, const domain::WorkspaceId& ws,
                             const domain::Person& person, domain::Timestamp now) {
  const domain::Person out = new_person_record(person, now);
  // The table name comes from a closed enum, never from input.
  const std::string sql = std::string("INSERT INTO ") +
                          (table == PersonTable::kReps ? "reps" : "agents") +
                          " (id, workspace_id, first_name, last_name, email, created_at)"
                          " VALUES (?, ?, ?, ?, ?, ?)";
  auto q = conn.query(sql);
  q.bind_text(out.id)
      .bind_text(ws.value)
      .bind_text(out.first_name)
      .bind_text(out.last_name)
      .bind_text(out.email)
      .bind_int(now.unix_ms)
      .run();
  return out;
}

domain::Department insert_department(Connection& conn, const domain::WorkspaceId& ws,
                                     const std::string& name, domain::Timestamp now) {
  domain::Department d{{domain::new_uuid_v7(now.unix_ms)}, name, now};
  auto q = conn.query(
      "INSERT INTO departments (id, workspace_id, name, created_at) VALUES (?, ?, ?, ?)");
  q.bind_text(d.id.value).bind_text(ws.value).bind_text(d.name).bind_int(now.unix_ms).run();
  return d;
}

bool rep_in_workspace(Connection& conn, const domain::WorkspaceId& ws, const domain::RepId& id) {
  return exists_in_workspace(conn, "SELECT 1 FROM reps WHERE workspace_id = ? AND id = ?", ws,
                             id.value);
}

bool agent_in_workspace(Connection& conn, const domain::WorkspaceId& ws,
                        const domain::AgentId& id) {
  return exists_in_workspace(conn, "SELECT 1 FROM agents WHERE workspace_id = ? AND id = ?", ws,
                             id.value);
}

bool department_in_workspace(Connection& conn, const domain::WorkspaceId& ws,
                             const domain::DepartmentId& id) {
  return exists_in_workspace(conn, "SELECT 1 FROM departments WHERE workspace_id = ? AND id = ?",
                             ws, id.value);
}

}  // namespace leadline::store::sqlite
