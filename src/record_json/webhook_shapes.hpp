// JSON shapes of webhook endpoints and deliveries, as docs/webhooks.md lists them.
#pragma once

#include <string_view>

#include "domain/webhook_records.hpp"
#include "record_json/json_writer.hpp"

namespace leadline::record_json {

// `secret` is written only when not empty (the create response).
void write_webhook(JsonWriter& w, const domain::WebhookEndpoint& webhook,
                   std::string_view secret = {});
// With `attempts` when `with_attempts` (GET-one).
void write_delivery(JsonWriter& w, const domain::Delivery& delivery, bool with_attempts = false);

}  // namespace leadline::record_json
