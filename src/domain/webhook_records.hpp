// Webhook endpoints, their deliveries and the attempts of each (docs/webhooks.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "domain/ids.hpp"
#include "domain/timestamp.hpp"

namespace leadline::domain {

inline constexpr std::size_t kMaxWebhooksPerWorkspace = 16;
// After a rotation the previous secret signs beside the new one for 24 hours.
inline constexpr std::int64_t kSecretRotationGraceMs = 24LL * 3600 * 1000;

struct WebhookEndpoint {
  WebhookId id;
  std::string url;
  std::vector<std::string> events;  // exact types, or {"*"}
  std::string description;
  bool enabled = true;
  std::optional<std::string> disabled_reason;  // "requested", "gone", "failing"
  Timestamp created_at;
  Timestamp updated_at;
};

struct NewWebhook {
  std::string url;
  std::vector<std::string> events{"*"};
  std::string description;
  bool enabled = true;
  std::string secret;  // "whsec_...", already checked or generated
};

struct WebhookPatch {
  std::optional<std::string> url;
  std::optional<std::vector<std::string>> events;
  std::optional<std::string> description;
  std::optional<bool> enabled;
};

// Whether an endpoint subscribed to `events` receives an event of `type`.
inline bool subscribes_to(const std::vector<std::string>& events, std::string_view type) {
  for (const auto& e : events) {
    if (e == "*" || e == type) return true;
  }
  return false;
}

enum class DeliveryStatus { kPending, kSucceeded, kFailed };
std::string_view to_string(DeliveryStatus status);
std::optional<DeliveryStatus> parse_delivery_status(std::string_view text);

struct DeliveryAttempt {
  Timestamp attempted_at;
  std::optional<int> status_code;
  std::int64_t duration_ms = 0;
  std::optional<std::string> error;
  std::string response_excerpt;
};

struct Delivery {
  DeliveryId id;
  WebhookId webhook_id;
  EventId event_id;
  std::string event_type;
  DeliveryStatus status = DeliveryStatus::kPending;
  int attempt_count = 0;
  std::optional<Timestamp> next_attempt_at;
  std::optional<Timestamp> last_attempt_at;
  std::optional<int> last_status_code;
  std::optional<std::string> last_error;
  Timestamp created_at;
  std::vector<DeliveryAttempt> attempts;  // filled only for GET-one
};

}  // namespace leadline::domain
