// Webhook endpoint bodies: each field's rule and sentence (docs/api.md, "Webhooks"); URL rules
// and secrets come from webhooks/.
#include "api/webhook_body.hpp"

#include <algorithm>

#include "api/body_fields.hpp"
#include "domain/event_types.hpp"
#include "webhooks/webhook_secret.hpp"

namespace leadline::api {

using namespace body;

namespace {

constexpr std::size_t kMaxDescription = 200;

// A member that is present and not null.
const json::value* given(const json::object& o, std::string_view name) {
  const auto it = o.find(name);
  if (it == o.end() || it->value().is_null()) return nullptr;
  return &it->value();
}

Error null_refused(const json::object& o, std::string_view name) {
  const auto it = o.find(name);
  if (it != o.end() && it->value().is_null()) {
    return BadRequest{std::string(name) + " must not be null"};
  }
  return std::nullopt;
}

Error url_field(const json::value& v, const WebhookRules& rules, std::string& out) {
  if (!v.is_string()) return BadRequest{"url must be a string"};
  const std::string_view url = v.get_string();
  if (auto problem = webhooks::url_problem(url, rules.urls)) return BadRequest{*problem};
  out = url;
  return std::nullopt;
}

Error events_field(const json::value& v, std::vector<std::string>& out) {
  constexpr std::string_view kShape =
      "events must be a non-empty array of event types (lead.created, ...) or [\"*\"]";
  if (!v.is_array() || v.get_array().empty()) return BadRequest{std::string(kShape)};
  std::vector<std::string> types;
  for (const auto& item : v.get_array()) {
    if (!item.is_string()) return BadRequest{std::string(kShape)};
    const std::string_view type = item.get_string();
    if (type != "*" && !domain::is_event_type(type)) {
      return BadRequest{"events: \"" + std::string(type) +
                        "\" is not an event type; list exact types such as lead.created, or "
                        "[\"*\"] alone for every type"};
    }
    if (std::find(types.begin(), types.end(), type) == types.end()) types.emplace_back(type);
  }
  if (types.size() > 1 && std::find(types.begin(), types.end(), "*") != types.end()) {
    return BadRequest{"events: \"*\" stands alone; it cannot be combined with other types"};
  }
  out = std::move(types);
  return std::nullopt;
}

Error description_field(const json::value& v, std::string& out) {
  if (!v.is_string()) return BadRequest{"description must be a string"};
  const std::string_view text = v.get_string();
  const auto characters = std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  });
  if (static_cast<std::size_t>(characters) > kMaxDescription) {
    return BadRequest{"description must be at most 200 characters"};
  }
  out = text;
  return std::nullopt;
}

Error enabled_field(const json::value& v, bool& out) {
  if (!v.is_bool()) return BadRequest{"enabled must be true or false"};
  out = v.get_bool();
  return std::nullopt;
}

}  // namespace

Decoded<domain::NewWebhook> decode_webhook_create(const json::object& o,
                                                  const WebhookRules& rules) {
  domain::NewWebhook webhook;
  if (auto e = reject_unknown_fields(o, {"url", "events", "description", "enabled", "secret"})) {
    return *e;
  }
  const json::value* url = given(o, "url");
  if (url == nullptr) return BadRequest{"url is required"};
  Error e;
  if ((e = url_field(*url, rules, webhook.url))) return *e;
  if (const auto* v = given(o, "events"); v && (e = events_field(*v, webhook.events))) return *e;
  if (const auto* v = given(o, "description");
      v && (e = description_field(*v, webhook.description))) {
    return *e;
  }
  if (const auto* v = given(o, "enabled"); v && (e = enabled_field(*v, webhook.enabled))) return *e;
  if (const auto* v = given(o, "secret")) {
    if (!v->is_string() || !webhooks::decode_secret(v->get_string())) {
      return BadRequest{"secret must be whsec_ followed by the standard base64 of 24 to 64 bytes"};
    }
    webhook.secret = v->get_string();
  } else {
    webhook.secret = webhooks::generate_secret();
  }
  return webhook;
}

Decoded<domain::WebhookPatch> decode_webhook_patch(const json::object& o,
                                                   const WebhookRules& rules) {
  domain::WebhookPatch patch;
  if (o.contains("secret")) {
    return BadRequest{"secret cannot be changed by PATCH; use POST /webhooks/rotate-secret"};
  }
  if (auto e = reject_unknown_fields(o, {"url", "events", "description", "enabled"})) return *e;
  for (std::string_view name : {"url", "events", "enabled"}) {
    if (auto e = null_refused(o, name)) return *e;
  }
  // A description is never absent, only empty: null clears it.
  if (const auto it = o.find("description"); it != o.end() && it->value().is_null()) {
    patch.description.emplace();
  }
  Error e;
  if (const auto* v = given(o, "url")) {
    if ((e = url_field(*v, rules, patch.url.emplace()))) return *e;
  }
  if (const auto* v = given(o, "events")) {
    if ((e = events_field(*v, patch.events.emplace()))) return *e;
  }
  if (const auto* v = given(o, "description")) {
    if ((e = description_field(*v, patch.description.emplace()))) return *e;
  }
  if (const auto* v = given(o, "enabled")) {
    if ((e = enabled_field(*v, patch.enabled.emplace()))) return *e;
  }
  return patch;
}

}  // namespace leadline::api
