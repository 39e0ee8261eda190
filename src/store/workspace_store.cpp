// SQL for workspaces, reps, agents and departments.
#include "store/workspace_store.hpp"

#include "domain/uuid.hpp"
#include "store/records/new_records.hpp"

namespace leadline::store {

namespace {

bool any_row(sql::Connection& conn, std::string_view sql, const sql::Params& params) {
  return conn.query(sql, params).next();
}

enum class PersonTable { kReps, kAgents };

domain::Person insert_person(sql::Connection& conn, PersonTable table,
                             const domain::WorkspaceId& ws, const domain::Person& person,
                             domain::Timestamp now) {
  const domain::Person out = new_person_record(person, now);
  // The table name comes from a closed enum, never from input.
  conn.execute(table == PersonTable::kReps
                   ? "INSERT INTO reps (id, workspace_id, first_name, last_name, email, "
                     "created_at) VALUES (?, ?, ?, ?, ?, ?)"
                   : "INSERT INTO agents (id, workspace_id, first_name, last_name, email, "
                     "created_at) VALUES (?, ?, ?, ?, ?, ?)",
               sql::Params()
                   .text(out.id)
                   .id(ws)
                   .text(out.first_name)
                   .text(out.last_name)
                   .text(out.email)
                   .int64(now.unix_ms));
  return out;
}

}  // namespace

domain::Workspace WorkspaceStore::create(const std::string& name) {
  static const Operation op("create_workspace");
  return runner_.write(op, [&](sql::Connection& c) {
    const domain::Timestamp now = runner_.now();
    domain::Workspace ws{{domain::new_uuid_v7(now.unix_ms)}, name, now};
    c.execute("INSERT INTO workspaces (id, name, created_at) VALUES (?, ?, ?)",
              sql::Params().id(ws.id).text(ws.name).int64(now.unix_ms));
    return ws;
  });
}

bool WorkspaceStore::exists(const domain::WorkspaceId& ws) {
  static const Operation op("workspace_exists");
  return runner_.read(op, [&](sql::Connection& c) {
    return any_row(c, "SELECT 1 FROM workspaces WHERE id = ?", sql::Params().id(ws));
  });
}

std::vector<domain::Workspace> WorkspaceStore::list() {
  static const Operation op("list_workspaces");
  return runner_.read(op, [&](sql::Connection& c) {
    auto rows = c.query("SELECT id, name, created_at FROM workspaces ORDER BY created_at, id");
    std::vector<domain::Workspace> out;
    while (rows.next()) out.push_back({{rows.text(0)}, rows.text(1), {rows.int64(2)}});
    return out;
  });
}

domain::Person WorkspaceStore::add_rep(const domain::WorkspaceId& ws, const domain::Person& rep) {
  static const Operation op("add_rep");
  return runner_.write(op, [&](sql::Connection& c) {
    return insert_person(c, PersonTable::kReps, ws, rep, runner_.now());
  });
}

domain::Person WorkspaceStore::add_agent(const domain::WorkspaceId& ws,
                                         const domain::Person& agent) {
  static const Operation op("add_agent");
  return runner_.write(op, [&](sql::Connection& c) {
    return insert_person(c, PersonTable::kAgents, ws, agent, runner_.now());
  });
}

domain::Department WorkspaceStore::add_department(const domain::WorkspaceId& ws,
                                                  const std::string& name) {
  static const Operation op("add_department");
  return runner_.write(op, [&](sql::Connection& c) {
    const domain::Timestamp now = runner_.now();
    domain::Department d{{domain::new_uuid_v7(now.unix_ms)}, name, now};
    c.execute("INSERT INTO departments (id, workspace_id, name, created_at) VALUES (?, ?, ?, ?)",
              sql::Params().id(d.id).id(ws).text(d.name).int64(now.unix_ms));
    return d;
  });
}

bool rep_in_workspace(sql::Connection& conn, const domain::WorkspaceId& ws,
                      const domain::RepId& id) {
  return any_row(conn, "SELECT 1 FROM reps WHERE workspace_id = ? AND id = ?",
                 sql::Params().id(ws).id(id));
}

bool agent_in_workspace(sql::Connection& conn, const domain::WorkspaceId& ws,
                        const domain::AgentId& id) {
  return any_row(conn, "SELECT 1 FROM agents WHERE workspace_id = ? AND id = ?",
                 sql::Params().id(ws).id(id));
}

std::optional<AgentPeople> find_agent_people(sql::Connection& conn, const domain::WorkspaceId& ws,
                                             const domain::AgentId& id) {
  auto row = conn.query(
      "SELECT first_name, last_name, email FROM agents WHERE workspace_id = ? "
      "AND id = ?",
      sql::Params().id(ws).id(id));
  if (!row.next()) return std::nullopt;
  return AgentPeople{row.opt_text(0), row.opt_text(1), row.opt_text(2)};
}

bool department_in_workspace(sql::Connection& conn, const domain::WorkspaceId& ws,
                             const domain::DepartmentId& id) {
  return any_row(conn, "SELECT 1 FROM departments WHERE workspace_id = ? AND id = ?",
                 sql::Params().id(ws).id(id));
}

}  // namespace leadline::store
