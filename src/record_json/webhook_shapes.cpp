// Field order follows docs/api.md's tables for endpoints and deliveries.
#include "record_json/webhook_shapes.hpp"

namespace leadline::record_json {

void write_webhook(JsonWriter& w, const domain::WebhookEndpoint& webhook, std::string_view secret) {
  w.begin_object()
      .field("id", webhook.id.value)
      .field("url", webhook.url)
      .field("events", webhook.events)
      .field("description", webhook.description)
      .field("enabled", webhook.enabled)
      .field("disabled_reason", webhook.disabled_reason);
  w.field("created_at", webhook.created_at).field("updated_at", webhook.updated_at);
  if (!secret.empty()) w.field("secret", secret);
  w.end_object();
}

void write_delivery(JsonWriter& w, const domain::Delivery& d, bool with_attempts) {
  w.begin_object()
      .field("id", d.id.value)
      .field("webhook_id", d.webhook_id.value)
      .field("event_id", d.event_id.value)
      .field("event_type", d.event_type)
      .field("status", domain::to_string(d.status))
      .field("attempt_count", d.attempt_count);
  w.field("next_attempt_at",
          d.status == domain::DeliveryStatus::kPending ? d.next_attempt_at : std::nullopt)
      .field("last_attempt_at", d.last_attempt_at)
      .field("last_status_code", d.last_status_code)
      .field("last_error", d.last_error)
      .field("created_at", d.created_at);
  if (with_attempts) {
    w.key("attempts").begin_array();
    for (const auto& a : d.attempts) {
      w.begin_object()
          .field("attempted_at", a.attempted_at)
          .field("status_code", a.status_code)
          .field("duration_ms", a.duration_ms)
          .field("error", a.error)
          .field("response_excerpt", a.response_excerpt)
          .end_object();
    }
    w.end_array();
  }
  w.end_object();
}

}  // namespace leadline::record_json
