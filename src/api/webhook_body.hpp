// Webhook endpoint request bodies (POST and PATCH /webhooks) -> domain records, with the rules
// of docs/webhooks.md: url, events, description, enabled, and secret on create only.
#pragma once

#include <boost/json/object.hpp>

#include "api/decoded.hpp"
#include "api/resource_context.hpp"
#include "domain/webhook_records.hpp"

namespace leadline::api {

// The secret is the one given, or a fresh one.
Decoded<domain::NewWebhook> decode_webhook_create(const boost::json::object& body,
                                                  const WebhookRules& rules);
Decoded<domain::WebhookPatch> decode_webhook_patch(const boost::json::object& body,
                                                   const WebhookRules& rules);

}  // namespace leadline::api
