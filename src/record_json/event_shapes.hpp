// The JSON of events (docs/webhooks.md, "The event object"): the same bytes in GET /events and
// in every webhook delivery, written once when the change commits.
#pragma once

#include <string>
#include <string_view>

#include "domain/records.hpp"
#include "domain/timestamp.hpp"

namespace leadline::record_json {

// `data` and `previous_attributes` are JSON texts; an empty `previous_attributes` is left out.
std::string event_body(std::string_view id, std::string_view type, domain::Timestamp at,
                       std::string_view data, std::string_view previous_attributes);

// The data of lead, contact and conversation events: the list-item shape.
std::string lead_data(const domain::Lead& lead);
std::string contact_data(const domain::Contact& contact);
std::string conversation_data(const domain::Conversation& conversation);
// {"conversation_id": ..., "message": <as in GET-one>}
std::string message_data(const domain::ConversationId& conversation, const domain::Message& m);

// Each patchable field that differs, with its value in `before`, as a JSON object; empty when
// none differs (a PATCH that changes nothing records no event).
std::string previous_attributes(const domain::Lead& before, const domain::Lead& after);
std::string previous_attributes(const domain::Contact& before, const domain::Contact& after);
std::string previous_attributes(const domain::Conversation& before,
                                const domain::Conversation& after);

}  // namespace leadline::record_json
