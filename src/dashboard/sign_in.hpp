// Checking an e-mail and password (docs/api.md, "The dashboard"): one answer for every failure,
// about the same time whether or not the address is known, and a throttle per address that
// holds at every instance.
#pragma once

#include <string_view>
#include <variant>

#include "api/errors.hpp"
#include "domain/dashboard_user.hpp"
#include "store/database.hpp"

namespace leadline::dashboard {

inline constexpr std::string_view kSignInFailed = "Incorrect e-mail or password";

// The user the password belongs to, or the 401 / 429 to answer with. An address used in
// several workspaces signs in to the oldest of its users whose password matches.
std::variant<domain::DashboardUser, api::ApiError> check_sign_in(store::Database& db,
                                                                 std::string_view email,
                                                                 std::string_view password);

}  // namespace leadline::dashboard
