// Dashboard sessions and the sign-in throttle, kept in the database so that every instance
// knows them: a sign-out, a reset or a throttle at one instance holds at all of them.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "domain/dashboard_user.hpp"
#include "store/operation_runner.hpp"

namespace leadline::store {

struct SessionLifetime {
  std::chrono::milliseconds idle{30 * 60 * 1000};           // ends this long after the last request
  std::chrono::milliseconds absolute{12 * 60 * 60 * 1000};  // and this long after sign-in
  // last_seen_at is written only when older than this, so a page's requests are not a write
  // each; the idle end is then late by at most this much.
  std::chrono::milliseconds touch_after() const { return idle / 30; }
};

// The sign-in throttle's answer: when the next attempt for the address may be made.
struct SignInBlocked {
  domain::Timestamp until;
};

class SessionStore {
 public:
  explicit SessionStore(OperationRunner& runner) : runner_(runner) {}

  // Stores the session (by the hash of its id) and stamps the user's last sign-in.
  void create(const domain::UserId& user, std::string_view id_hash);
  // The signed-in user, moving the session's last use forward; nothing when the session is
  // unknown or past either end (an ended session is deleted).
  std::optional<domain::DashboardUser> resume(std::string_view id_hash,
                                              const SessionLifetime& lifetime);
  void end(std::string_view id_hash);
  // Deletes sessions past their ends and the failure counts of addresses without a failure for a
  // day, at most `batch` of each; returns the larger of the two counts.
  std::int64_t purge_ended(const SessionLifetime& lifetime, int batch);

  // After 5 failures for an address, each further attempt waits twice as long as the one
  // before, from 1 s up to 15 min. Keyed by the case-folded address, whether or not a user has it.
  std::optional<SignInBlocked> blocked(std::string_view email);
  void record_failure(std::string_view email);
  void clear_failures(std::string_view email);

 private:
  OperationRunner& runner_;
};

}  // namespace leadline::store
