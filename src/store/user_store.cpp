// SQL for dashboard users. Addresses are compared by their Unicode case folding (email_folded),
// as contact e-mails are.
#include "store/user_store.hpp"

#include "domain/unicode_text.hpp"
#include "domain/uuid.hpp"

namespace leadline::store {

namespace {

constexpr std::string_view kUserColumns =
    "id, workspace_id, email, name, created_at, last_sign_in_at, password_hash";

domain::DashboardUser read_user(const sql::Rows& row) {
  domain::DashboardUser u;
  u.id.value = row.text(0);
  u.workspace_id.value = row.text(1);
  u.email = row.text(2);
  u.name = row.text(3);
  u.created_at = {row.int64(4)};
  if (!row.is_null(5)) u.last_sign_in_at = domain::Timestamp{row.int64(5)};
  return u;
}

std::string select_users(std::string_view where) {
  std::string sql = "SELECT ";
  sql.append(kUserColumns).append(" FROM dashboard_users WHERE ").append(where);
  return sql;
}

std::optional<domain::DashboardUser> find_user(sql::Connection& c, const domain::UserId& id) {
  static const std::string sql = select_users("id = ?");
  auto rows = c.query(sql, sql::Params().id(id));
  if (!rows.next()) return std::nullopt;
  return read_user(rows);
}

void end_sessions_of(sql::Connection& c, const domain::UserId& id) {
  c.execute("DELETE FROM dashboard_sessions WHERE user_id = ?", sql::Params().id(id));
}

}  // namespace

std::variant<domain::DashboardUser, UserEmailTaken> UserStore::add(
    const domain::NewDashboardUser& user) {
  static const Operation op("add_dashboard_user");
  return runner_.write(
      op, [&](sql::Connection& c) -> std::variant<domain::DashboardUser, UserEmailTaken> {
        const domain::Timestamp now = runner_.now();
        domain::DashboardUser out{{domain::new_uuid_v7(now.unix_ms)},
                                  user.workspace_id,
                                  user.email,
                                  user.name,
                                  now,
                                  std::nullopt};
        const auto inserted = c.execute_unless_duplicate(
            "INSERT INTO dashboard_users (id, workspace_id, email, email_folded, name, "
            "password_hash, setup_token_hash, setup_expires_at, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            sql::Params()
                .id(out.id)
                .id(out.workspace_id)
                .text(out.email)
                .text(domain::case_fold(out.email))
                .text(out.name)
                .opt_text(user.password_hash)
                .opt_text(user.setup_token_hash)
                .int64(user.setup_expires_at.unix_ms)
                .int64(now.unix_ms));
        if (!inserted) return UserEmailTaken{};
        return out;
      });
}

std::vector<domain::DashboardUser> UserStore::list(const domain::WorkspaceId& ws) {
  static const Operation op("list_dashboard_users");
  static const std::string sql = select_users("workspace_id = ? ORDER BY created_at, id");
  return runner_.read(op, [&](sql::Connection& c) {
    std::vector<domain::DashboardUser> users;
    auto rows = c.query(sql, sql::Params().id(ws));
    while (rows.next()) users.push_back(read_user(rows));
    return users;
  });
}

std::optional<domain::DashboardUser> UserStore::get(const domain::UserId& id) {
  static const Operation op("get_dashboard_user");
  return runner_.read(op, [&](sql::Connection& c) { return find_user(c, id); });
}

std::vector<domain::SignInCandidate> UserStore::sign_in_candidates(std::string_view email) {
  static const Operation op("find_dashboard_users_by_email");
  static const std::string sql = select_users("email_folded = ? ORDER BY created_at, id");
  const std::string folded = domain::case_fold(email);
  return runner_.read(op, [&](sql::Connection& c) {
    std::vector<domain::SignInCandidate> found;
    auto rows = c.query(sql, sql::Params().text(folded));
    while (rows.next()) found.push_back({read_user(rows), rows.opt_text(6)});
    return found;
  });
}

std::optional<domain::DashboardUser> UserStore::finish_setup(std::string_view token_hash,
                                                             const std::string& password_hash) {
  static const Operation op("finish_dashboard_user_setup");
  return runner_.write(op, [&](sql::Connection& c) -> std::optional<domain::DashboardUser> {
    auto rows = c.query(
        "SELECT id FROM dashboard_users WHERE setup_token_hash = ? AND setup_expires_at > ?",
        sql::Params().text(token_hash).int64(runner_.now().unix_ms));
    if (!rows.next()) return std::nullopt;
    const domain::UserId id{rows.text(0)};
    c.execute(
        "UPDATE dashboard_users SET password_hash = ?, setup_token_hash = NULL, "
        "setup_expires_at = NULL WHERE id = ?",
        sql::Params().text(password_hash).id(id));
    end_sessions_of(c, id);
    return find_user(c, id);
  });
}

std::optional<domain::DashboardUser> UserStore::reset(const domain::UserId& id,
                                                      std::string_view token_hash,
                                                      domain::Timestamp expires_at) {
  static const Operation op("reset_dashboard_user");
  return runner_.write(op, [&](sql::Connection& c) -> std::optional<domain::DashboardUser> {
    const auto changed = c.execute(
        "UPDATE dashboard_users SET password_hash = NULL, setup_token_hash = ?, "
        "setup_expires_at = ? WHERE id = ?",
        sql::Params().text(token_hash).int64(expires_at.unix_ms).id(id));
    if (changed == 0) return std::nullopt;
    end_sessions_of(c, id);
    return find_user(c, id);
  });
}

bool UserStore::remove(const domain::UserId& id) {
  static const Operation op("remove_dashboard_user");
  return runner_.write(op, [&](sql::Connection& c) {
    end_sessions_of(c, id);
    return c.execute("DELETE FROM dashboard_users WHERE id = ?", sql::Params().id(id)) > 0;
  });
}

}  // namespace leadline::store
