// Record -> JSON for the operator command's output.
#include "cli/record_reports.hpp"

#include <boost/json/array.hpp>

#include "cli/scopes.hpp"

namespace leadline::cli {

namespace json = boost::json;

namespace {

json::string iso(domain::Timestamp t) {
  return json::string(domain::format_iso8601(t));
}

// Null for a moment that has not happened (not revoked, never signed in).
json::value iso_or_null(const std::optional<domain::Timestamp>& t) {
  return t ? json::value(iso(*t)) : json::value(nullptr);
}

}  // namespace

json::object workspace_json(const domain::Workspace& ws) {
  return {{"id", ws.id.value}, {"name", ws.name}, {"created_at", iso(ws.created_at)}};
}

json::object person_json(const domain::Person& person) {
  return {{"id", person.id},
          {"first_name", person.first_name},
          {"last_name", person.last_name},
          {"email", person.email},
          {"created_at", iso(person.created_at)}};
}

json::object department_json(const domain::Department& department) {
  return {{"id", department.id.value},
          {"name", department.name},
          {"created_at", iso(department.created_at)}};
}

json::object api_key_json(const domain::ApiKeyRecord& key) {
  json::array scopes;
  for (const auto& name : scope_names(key.scopes)) scopes.emplace_back(name);
  json::array allowed_ips;
  for (const auto& ip : key.allowed_ips) allowed_ips.emplace_back(ip);
  return {{"id", key.id.value},
          {"name", key.name},
          {"scopes", std::move(scopes)},
          {"allowed_ips", std::move(allowed_ips)},
          {"created_at", iso(key.created_at)}};
}

json::object api_key_listing_json(const domain::ApiKeyRecord& key) {
  json::object out = api_key_json(key);
  out["prefix"] = key.prefix;
  out["revoked_at"] = iso_or_null(key.revoked_at);
  return out;
}

json::object usage_json(const domain::UsageReport& usage) {
  json::object by_endpoint;
  for (const auto& [endpoint, count] : usage.by_endpoint) by_endpoint[endpoint] = count;
  return {{"today", usage.today},           {"this_week", usage.this_week},
          {"this_month", usage.this_month}, {"by_endpoint", std::move(by_endpoint)},
          {"error_rate", usage.error_rate}, {"rate_limited", usage.rate_limited}};
}

json::object dashboard_user_json(const domain::DashboardUser& user) {
  return {{"id", user.id.value},
          {"workspace_id", user.workspace_id.value},
          {"email", user.email},
          {"name", user.name},
          {"created_at", iso(user.created_at)}};
}

json::object dashboard_user_listing_json(const domain::DashboardUser& user) {
  json::object out = dashboard_user_json(user);
  out["last_sign_in_at"] = iso_or_null(user.last_sign_in_at);
  return out;
}

}  // namespace leadline::cli
