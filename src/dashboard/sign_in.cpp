#include "dashboard/sign_in.hpp"

#include <algorithm>
#include <optional>

#include "auth/password_hash.hpp"

namespace leadline::dashboard {

namespace {

api::ApiError throttled(domain::Timestamp until, domain::Timestamp now) {
  const std::int64_t seconds =
      std::max<std::int64_t>(1, (until.unix_ms - now.unix_ms + 999) / 1000);
  api::ApiError error(
      api::ErrorKind::kSignInThrottled,
      "too many failed sign-ins for this e-mail; try again in " + std::to_string(seconds) + " s");
  error.retry_after_s = seconds;
  return error;
}

}  // namespace

std::variant<domain::DashboardUser, api::ApiError> check_sign_in(store::Database& db,
                                                                 std::string_view email,
                                                                 std::string_view password) {
  if (const auto blocked = db.sessions().blocked(email)) {
    return throttled(blocked->until, db.now());
  }
  // Every candidate's hash is checked (a user still to choose a password costs a dummy check),
  // and an unknown address costs one: the time tells little about which addresses exist.
  std::optional<domain::DashboardUser> matched;
  const auto candidates = db.users().sign_in_candidates(email);
  if (candidates.empty()) auth::spend_one_verification(password);
  for (const auto& candidate : candidates) {
    if (!candidate.password_hash) {
      auth::spend_one_verification(password);
    } else if (auth::verify_password(password, *candidate.password_hash) && !matched) {
      matched = candidate.user;
    }
  }
  if (!matched) {
    db.sessions().record_failure(email);
    return api::ApiError(api::ErrorKind::kNotSignedIn, std::string(kSignInFailed));
  }
  db.sessions().clear_failures(email);
  return *matched;
}

}  // namespace leadline::dashboard
