// The JSON shapes the operator command prints for workspaces, people, departments, API keys,
// usage reports and dashboard users (README.md, "Operator commands").
#pragma once

#include <boost/json/object.hpp>
#include <string>

#include "domain/dashboard_user.hpp"
#include "domain/records.hpp"
#include "store/database.hpp"

namespace leadline::cli {

boost::json::object workspace_json(const domain::Workspace& ws);
boost::json::object person_json(const domain::Person& person);
boost::json::object department_json(const domain::Department& department);

// Without the plaintext key and without prefix/revoked_at: the fields `keys create` and
// `keys list` share.
boost::json::object api_key_json(const domain::ApiKeyRecord& key);
// `keys list` item: api_key_json plus prefix and revoked_at (null while active).
boost::json::object api_key_listing_json(const domain::ApiKeyRecord& key);

boost::json::object usage_json(const domain::UsageReport& usage);

// The fields `users add` and `users list` share: id, workspace_id, email, name, created_at.
boost::json::object dashboard_user_json(const domain::DashboardUser& user);
// `users list` item: dashboard_user_json plus last_sign_in_at (null before the first sign-in).
boost::json::object dashboard_user_listing_json(const domain::DashboardUser& user);

}  // namespace leadline::cli
