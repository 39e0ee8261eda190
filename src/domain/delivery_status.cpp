// The delivery statuses as the API writes them.
#include "domain/webhook_records.hpp"

namespace leadline::domain {

std::string_view to_string(DeliveryStatus status) {
  switch (status) {
    case DeliveryStatus::kPending:
      return "pending";
    case DeliveryStatus::kSucceeded:
      return "succeeded";
    case DeliveryStatus::kFailed:
      return "failed";
  }
  return "pending";
}

std::optional<DeliveryStatus> parse_delivery_status(std::string_view text) {
  for (auto s : {DeliveryStatus::kPending, DeliveryStatus::kSucceeded, DeliveryStatus::kFailed}) {
    if (to_string(s) == text) return s;
  }
  return std::nullopt;
}

}  // namespace leadline::domain
