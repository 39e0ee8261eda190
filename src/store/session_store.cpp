// SQL for dashboard sessions and failed sign-ins.
#include "store/session_store.hpp"

#include <algorithm>

#include "domain/unicode_text.hpp"

namespace leadline::store {

namespace {

constexpr std::int64_t kFreeFailures = 5;
constexpr std::int64_t kFirstWaitMs = 1000;
constexpr std::int64_t kLongestWaitMs = 15 * 60 * 1000;
// A day without failures forgets an address's count (and keeps the table small when someone
// tries many addresses).
constexpr std::int64_t kForgetFailuresAfterMs = 24LL * 3600 * 1000;

// The wait after the n-th failure: none up to the 5th, then 1 s, 2 s, 4 s, ... up to 15 min.
std::int64_t wait_after(std::int64_t failures) {
  if (failures < kFreeFailures) return 0;
  const std::int64_t doublings = std::min<std::int64_t>(failures - kFreeFailures, 20);
  return std::min(kFirstWaitMs << doublings, kLongestWaitMs);
}

}  // namespace

void SessionStore::create(const domain::UserId& user, std::string_view id_hash) {
  static const Operation op("create_dashboard_session");
  runner_.write(op, [&](sql::Connection& c) {
    const std::int64_t now = runner_.now().unix_ms;
    c.execute(
        "INSERT INTO dashboard_sessions (id_hash, user_id, created_at, last_seen_at) "
        "VALUES (?, ?, ?, ?)",
        sql::Params().text(id_hash).id(user).int64(now).int64(now));
    c.execute("UPDATE dashboard_users SET last_sign_in_at = ? WHERE id = ?",
              sql::Params().int64(now).id(user));
  });
}

std::optional<domain::DashboardUser> SessionStore::resume(std::string_view id_hash,
                                                          const SessionLifetime& lifetime) {
  static const Operation op("resume_dashboard_session");
  static const Operation touch_op("touch_dashboard_session");
  struct Found {
    domain::DashboardUser user;
    std::int64_t created_at;
    std::int64_t last_seen_at;
  };
  auto found = runner_.read(op, [&](sql::Connection& c) -> std::optional<Found> {
    auto rows = c.query(
        "SELECT u.id, u.workspace_id, u.email, u.name, u.created_at, u.last_sign_in_at, "
        "s.created_at, s.last_seen_at FROM dashboard_sessions s "
        "JOIN dashboard_users u ON u.id = s.user_id WHERE s.id_hash = ?",
        sql::Params().text(id_hash));
    if (!rows.next()) return std::nullopt;
    domain::DashboardUser u{{rows.text(0)}, {rows.text(1)},  rows.text(2),
                            rows.text(3),   {rows.int64(4)}, std::nullopt};
    if (!rows.is_null(5)) u.last_sign_in_at = domain::Timestamp{rows.int64(5)};
    return Found{std::move(u), rows.int64(6), rows.int64(7)};
  });
  if (!found) return std::nullopt;
  const std::int64_t now = runner_.now().unix_ms;
  if (now - found->last_seen_at >= lifetime.idle.count() ||
      now - found->created_at >= lifetime.absolute.count()) {
    end(id_hash);
    return std::nullopt;
  }
  if (now - found->last_seen_at >= lifetime.touch_after().count()) {
    runner_.write(touch_op, [&](sql::Connection& c) {
      c.execute("UPDATE dashboard_sessions SET last_seen_at = ? WHERE id_hash = ?",
                sql::Params().int64(now).text(id_hash));
    });
  }
  return std::move(found->user);
}

void SessionStore::end(std::string_view id_hash) {
  static const Operation op("end_dashboard_session");
  runner_.write(op, [&](sql::Connection& c) {
    c.execute("DELETE FROM dashboard_sessions WHERE id_hash = ?", sql::Params().text(id_hash));
  });
}

std::int64_t SessionStore::purge_ended(const SessionLifetime& lifetime, int batch) {
  static const Operation op("purge_dashboard_sessions");
  const std::int64_t now = runner_.now().unix_ms;
  return runner_.write(op, [&](sql::Connection& c) {
    const std::int64_t sessions = c.execute(
        "DELETE FROM dashboard_sessions WHERE id_hash IN (SELECT id_hash FROM dashboard_sessions "
        "WHERE last_seen_at <= ? OR created_at <= ? LIMIT ?)",
        sql::Params()
            .int64(now - lifetime.idle.count())
            .int64(now - lifetime.absolute.count())
            .int64(batch));
    const std::int64_t failures = c.execute(
        "DELETE FROM dashboard_sign_in_failures WHERE email_folded IN (SELECT email_folded FROM "
        "dashboard_sign_in_failures WHERE updated_at <= ? AND blocked_until <= ? LIMIT ?)",
        sql::Params().int64(now - kForgetFailuresAfterMs).int64(now).int64(batch));
    return std::max(sessions, failures);
  });
}

std::optional<SignInBlocked> SessionStore::blocked(std::string_view email) {
  static const Operation op("sign_in_throttle");
  const std::string folded = domain::case_fold(email);
  const std::int64_t now = runner_.now().unix_ms;
  return runner_.read(op, [&](sql::Connection& c) -> std::optional<SignInBlocked> {
    auto rows =
        c.query("SELECT blocked_until FROM dashboard_sign_in_failures WHERE email_folded = ?",
                sql::Params().text(folded));
    if (!rows.next() || rows.int64(0) <= now) return std::nullopt;
    return SignInBlocked{{rows.int64(0)}};
  });
}

void SessionStore::record_failure(std::string_view email) {
  static const Operation op("record_sign_in_failure");
  const std::string folded = domain::case_fold(email);
  runner_.write(op, [&](sql::Connection& c) {
    const std::int64_t now = runner_.now().unix_ms;
    std::int64_t failures = 1;
    auto rows = c.query("SELECT failures FROM dashboard_sign_in_failures WHERE email_folded = ?",
                        sql::Params().text(folded));
    if (rows.next()) failures = rows.int64(0) + 1;
    c.execute(
        "INSERT INTO dashboard_sign_in_failures (email_folded, failures, blocked_until, "
        "updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (email_folded) DO UPDATE SET "
        "failures = dashboard_sign_in_failures.failures + 1, "
        "blocked_until = excluded.blocked_until, updated_at = excluded.updated_at",
        sql::Params().text(folded).int64(failures).int64(now + wait_after(failures)).int64(now));
  });
}

void SessionStore::clear_failures(std::string_view email) {
  static const Operation op("clear_sign_in_failures");
  const std::string folded = domain::case_fold(email);
  runner_.write(op, [&](sql::Connection& c) {
    c.execute("DELETE FROM dashboard_sign_in_failures WHERE email_folded = ?",
              sql::Params().text(folded));
  });
}

}  // namespace leadline::store
