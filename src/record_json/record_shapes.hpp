// JSON shapes of records, exactly as the contract lists them per operation.
#pragma once

#include "domain/records.hpp"
#include "record_json/json_writer.hpp"

namespace leadline::record_json {

// List item, GET-one and PATCH response.
void write_lead_item(JsonWriter& w, const domain::Lead& lead);
// Create response: no rep fields, no lead_score; optional visitor fields only when sent.
void write_lead_created(JsonWriter& w, const domain::Lead& lead);

void write_contact_item(JsonWriter& w, const domain::Contact& contact);
void write_contact_created(JsonWriter& w, const domain::Contact& contact);

void write_conversation_item(JsonWriter& w, const domain::Conversation& conversation);
void write_conversation_detail(JsonWriter& w, const domain::ConversationWithMessages& detail);
// The same in parts, for messages written as they are read: the conversation and up to the
// first message, then each message (write_message), then the rest.
void begin_conversation_detail(JsonWriter& w, const domain::Conversation& conversation);
void end_conversation_detail(JsonWriter& w, std::int64_t message_count);
// One message as GET-one lists it.
void write_message(JsonWriter& w, const domain::Message& message);
void write_conversation_patched(JsonWriter& w, const domain::ConversationPatchResult& result);

void write_deleted(JsonWriter& w, const std::string& id);

}  // namespace leadline::record_json
