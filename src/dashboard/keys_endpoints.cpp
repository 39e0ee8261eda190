// The workspace's API keys as its users manage them: list (with when each was last used),
// create (the key shown in this one answer only) and revoke, which the API honours from the
// very next request at every instance because it reads keys from the database.
#include <boost/json/object.hpp>
#include <map>

#include "api/body_fields.hpp"
#include "api/envelope.hpp"
#include "api/resource_support.hpp"
#include "auth/api_key.hpp"
#include "auth/ip_rule.hpp"
#include "dashboard/dashboard_call.hpp"

namespace leadline::dashboard {

namespace {

constexpr std::size_t kMaxKeyName = 200;
constexpr std::size_t kMaxAllowedIps = 100;

void write_key(api::JsonWriter& w, const domain::ApiKeyRecord& key,
               std::optional<domain::Timestamp> last_used, const std::string* plaintext) {
  w.begin_object().field("id", key.id.value);
  if (plaintext != nullptr) w.field("key", *plaintext);
  w.field("name", key.name)
      .field("prefix", key.prefix)
      .field("scopes", domain::scope_names(key.scopes))
      .field("allowed_ips", key.allowed_ips)
      .field("created_at", key.created_at)
      .field("last_used_at", last_used)
      .field("revoked_at", key.revoked_at)
      .end_object();
}

// ["read","write"]: at least one, each known, no repeats.
api::Decoded<domain::ScopeSet> scopes_field(const boost::json::object& body) {
  const auto* member = body.if_contains("scopes");
  if (member == nullptr || !member->is_array() || member->get_array().empty()) {
    return api::BadRequest{"scopes is required: an array of \"read\" and/or \"write\""};
  }
  domain::ScopeSet scopes;
  for (const auto& item : member->get_array()) {
    const auto scope =
        item.is_string() ? domain::parse_scope(item.get_string()) : std::optional<domain::Scope>{};
    if (!scope || scopes.has(*scope)) {
      return api::BadRequest{"scopes may hold \"read\" and \"write\", each at most once"};
    }
    scopes.add(*scope);
  }
  return scopes;
}

api::Decoded<std::vector<std::string>> allowed_ips_field(const boost::json::object& body) {
  std::vector<std::string> entries;
  const auto* member = body.if_contains("allowed_ips");
  if (member == nullptr || member->is_null()) return entries;
  if (!member->is_array() || member->get_array().size() > kMaxAllowedIps) {
    return api::BadRequest{"allowed_ips must be an array of at most " +
                           std::to_string(kMaxAllowedIps) + " addresses or CIDR ranges"};
  }
  for (const auto& item : member->get_array()) {
    if (!item.is_string() || !auth::parse_ip_range(item.get_string())) {
      return api::BadRequest{
          "allowed_ips: every entry must be an IPv4/IPv6 address or CIDR "
          "range, such as 203.0.113.7 or 2001:db8::/32"};
    }
    entries.emplace_back(item.get_string());
  }
  return entries;
}

api::Outcome create_key(DashboardCall& call) {
  auto body = api::json_body(call.request);
  if (auto* e = api::failed(body)) return api::ApiError(*e);
  const auto& object = api::value(body);
  if (auto e = api::body::reject_unknown_fields(object, {"name", "scopes", "allowed_ips"})) {
    return *e;
  }
  std::string name;
  if (auto e = api::body::required_text(object, "name", kMaxKeyName, name)) return *e;
  auto scopes = scopes_field(object);
  if (auto* e = api::failed(scopes)) return api::ApiError(*e);
  auto ips = allowed_ips_field(object);
  if (auto* e = api::failed(ips)) return api::ApiError(*e);

  const std::string key = auth::generate_api_key();
  const auto record = call.db.keys().create({
      .workspace_id = call.session->user.workspace_id,
      .name = std::move(name),
      .prefix = auth::display_prefix(key),
      .key_hash = auth::hash_api_key(key),
      .scopes = api::value(scopes),
      .allowed_ips = std::move(api::value(ips)),
  });
  api::respond_data(call.response, api::Success::kCreated,
                    [&](api::JsonWriter& w) { write_key(w, record, std::nullopt, &key); });
  return api::kAnswered;
}

api::Outcome list_keys(DashboardCall& call) {
  const auto& ws = call.session->user.workspace_id;
  const auto keys = call.db.keys().list(ws);
  const auto last_used = call.db.usage().last_used(ws);
  api::respond_data(call.response, api::Success::kOk, [&](api::JsonWriter& w) {
    w.begin_array();
    // Newest first, as the page shows them.
    for (auto it = keys.rbegin(); it != keys.rend(); ++it) {
      const auto used = last_used.find(it->id.value);
      write_key(w, *it, used == last_used.end() ? std::nullopt : std::optional(used->second),
                nullptr);
    }
    w.end_array();
  });
  return api::kAnswered;
}

}  // namespace

api::Outcome keys_endpoint(DashboardCall& call) {
  return call.request.method == "POST" ? create_key(call) : list_keys(call);
}

api::Outcome key_revocation_endpoint(DashboardCall& call) {
  auto id = api::record_id(call.query);
  if (auto* e = api::failed(id)) return api::ApiError(*e);
  const auto revoked =
      call.db.keys().revoke(call.session->user.workspace_id, domain::ApiKeyId{api::value(id)});
  const auto* key = std::get_if<domain::ApiKeyRecord>(&revoked);
  if (key == nullptr) return api::record_not_found("API key");
  api::respond_data(call.response, api::Success::kOk,
                    [&](api::JsonWriter& w) { write_key(w, *key, std::nullopt, nullptr); });
  return api::kAnswered;
}

}  // namespace leadline::dashboard
