// Dashboard users as records: the people of a workspace who sign in to /dashboard, and the
// sessions they sign in with (docs/api.md, "The dashboard").
#pragma once

#include <optional>
#include <string>

#include "domain/ids.hpp"
#include "domain/timestamp.hpp"

namespace leadline::domain {

using UserId = Id<struct UserTag>;

struct DashboardUser {
  UserId id;
  WorkspaceId workspace_id;
  std::string email;  // trimmed, case kept; unique per workspace case-insensitively
  std::string name;
  Timestamp created_at;
  std::optional<Timestamp> last_sign_in_at;
};

struct NewDashboardUser {
  WorkspaceId workspace_id;
  std::string email;
  std::string name;
  std::optional<std::string> password_hash;  // Argon2id string; none until the setup link is used
  std::optional<std::string> setup_token_hash;
  Timestamp setup_expires_at;
};

// A user of the workspace with the stored password hash, for checking a sign-in.
struct SignInCandidate {
  DashboardUser user;
  std::optional<std::string> password_hash;
};

}  // namespace leadline::domain
