// The event types a change records (docs/webhooks.md, "Event types"), and the families
// GET /events filters by.
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace leadline::domain {

inline constexpr std::array<std::string_view, 9> kEventTypes{
    "lead.created",         "lead.updated",         "lead.deleted",
    "contact.created",      "contact.updated",      "contact.deleted",
    "conversation.created", "conversation.updated", "message.created",
};

// The dashboard's "Send test event": delivered to the one endpoint asked for, whatever its
// `events`. Not in kEventTypes, so no endpoint subscribes to it and the feed never holds it.
inline constexpr std::string_view kWebhookTestEventType = "webhook.test";

inline constexpr std::array<std::string_view, 4> kEventFamilies{"lead.*", "contact.*",
                                                                "conversation.*", "message.*"};

bool is_event_type(std::string_view text);

// "lead.*" -> "lead."; nothing for anything but one of kEventFamilies.
std::optional<std::string_view> event_family_prefix(std::string_view text);

}  // namespace leadline::domain
