// Dashboard users of a workspace: added and reset by operators (`leadline users`), signed in
// through the dashboard. Removing or resetting a user ends every session of theirs.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "domain/dashboard_user.hpp"
#include "store/operation_runner.hpp"

namespace leadline::store {

// Another user of the workspace has the e-mail (compared case-insensitively).
struct UserEmailTaken {};

class UserStore {
 public:
  explicit UserStore(OperationRunner& runner) : runner_(runner) {}

  std::variant<domain::DashboardUser, UserEmailTaken> add(const domain::NewDashboardUser& user);
  // Oldest first.
  std::vector<domain::DashboardUser> list(const domain::WorkspaceId& ws);
  std::optional<domain::DashboardUser> get(const domain::UserId& id);
  // Every user with this address (any workspace), oldest first, with their password hashes.
  std::vector<domain::SignInCandidate> sign_in_candidates(std::string_view email);
  // Sets the password of the user whose unexpired setup token hashes to `token_hash`, and uses
  // the token up; nothing when no such token is valid now.
  std::optional<domain::DashboardUser> finish_setup(std::string_view token_hash,
                                                    const std::string& password_hash);
  // Forgets the password, issues a new setup token and ends the user's sessions.
  std::optional<domain::DashboardUser> reset(const domain::UserId& id, std::string_view token_hash,
                                             domain::Timestamp expires_at);
  // Ends the user's sessions and removes the user; false when there is none.
  bool remove(const domain::UserId& id);

 private:
  OperationRunner& runner_;
};

}  // namespace leadline::store
