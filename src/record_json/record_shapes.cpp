// Field order follows docs/api.md's field tables, so responses read like the reference.
#include "record_json/record_shapes.hpp"

namespace leadline::record_json {

namespace {

template <class Id>
void optional_id(JsonWriter& w, std::string_view key, const std::optional<Id>& id) {
  w.key(key);
  if (id) {
    w.string(id->value);
  } else {
    w.null();
  }
}

// The fields every contact shape starts with.
void contact_identity(JsonWriter& w, const domain::Contact& c) {
  w.field("id", c.id.value)
      .field("first_name", c.first_name)
      .field("last_name", c.last_name)
      .field("email", c.email)
      .field("phone", c.phone)
      .field("company_name", c.company_name);
}

// The fields every conversation shape starts with.
void conversation_head(JsonWriter& w, const domain::Conversation& c) {
  w.field("id", c.id.value)
      .field("source", c.source)
      .field("status", domain::to_string(c.status))
      .field("tags", c.tags);
  w.field("created_at", c.created_at);
  w.field("updated_at", c.updated_at);
}

}  // namespace

void write_lead_item(JsonWriter& w, const domain::Lead& lead) {
  w.begin_object()
      .field("id", lead.id.value)
      .field("visitor_name", lead.visitor_name)
      .field("visitor_email", lead.visitor_email)
      .field("visitor_phone", lead.visitor_phone)
      .field("visitor_company", lead.visitor_company)
      .field("pipeline_stage", domain::to_string(lead.pipeline_stage))
      .field("need_summary", lead.need_summary)
      .field("tags", lead.tags)
      .field("source", lead.source)
      .field("expected_billing_amount", lead.expected_billing_amount)
      .field("lead_score", lead.lead_score);
  optional_id(w, "assigned_rep_id", lead.assigned_rep_id);
  w.key("rep_first_name");
  lead.rep ? w.string(lead.rep->first_name) : w.null();
  w.key("rep_last_name");
  lead.rep ? w.string(lead.rep->last_name) : w.null();
  w.key("rep_email");
  lead.rep ? w.string(lead.rep->email) : w.null();
  w.field("created_at", lead.created_at);
  w.field("updated_at", lead.updated_at);
  w.end_object();
}

void write_lead_created(JsonWriter& w, const domain::Lead& lead) {
  w.begin_object().field("id", lead.id.value).field("visitor_name", lead.visitor_name);
  if (lead.visitor_email) w.field("visitor_email", *lead.visitor_email);
  if (lead.visitor_phone) w.field("visitor_phone", *lead.visitor_phone);
  if (lead.visitor_company) w.field("visitor_company", *lead.visitor_company);
  w.field("pipeline_stage", domain::to_string(lead.pipeline_stage))
      .field("need_summary", lead.need_summary)
      .field("tags", lead.tags)
      .field("source", lead.source)
      .field("expected_billing_amount", lead.expected_billing_amount);
  w.field("created_at", lead.created_at);
  w.field("updated_at", lead.updated_at);
  w.end_object();
}

void write_contact_item(JsonWriter& w, const domain::Contact& c) {
  w.begin_object();
  contact_identity(w, c);
  w.field("avatar_url", c.avatar_url)
      .field("tags", c.tags)
      .field("profile_notes", c.profile_notes)
      .field("interest_summary", c.interest_summary);
  w.field("last_activity", c.last_activity);
  w.field("created_at", c.created_at);
  w.field("conversation_count", c.conversation_count);
  w.field("last_conversation_at", c.last_conversation_at);
  w.end_object();
}

void write_contact_created(JsonWriter& w, const domain::Contact& c) {
  w.begin_object();
  contact_identity(w, c);
  w.field("tags", c.tags).field("profile_notes", c.profile_notes);
  w.field("created_at", c.created_at);
  w.end_object();
}

void write_conversation_item(JsonWriter& w, const domain::Conversation& c) {
  w.begin_object();
  conversation_head(w, c);
  optional_id(w, "agent_id", c.agent_id);
  optional_id(w, "department_id", c.department_id);
  w.field("visitor_name", c.visitor_name)
      .field("visitor_email", c.visitor_email)
      .field("visitor_company", c.visitor_company)
      .field("agent_name", c.agent_name)
      .field("last_message", c.last_message)
      .field("message_count", c.message_count)
      .end_object();
}

void begin_conversation_detail(JsonWriter& w, const domain::Conversation& c) {
  w.begin_object().key("conversation").begin_object();
  conversation_head(w, c);
  w.field("visitor_name", c.visitor_name)
      .field("visitor_last_name", c.visitor_last_name)
      .field("visitor_email", c.visitor_email)
      .field("visitor_phone", c.visitor_phone)
      .field("visitor_company", c.visitor_company)
      .field("agent_name", c.agent_name)
      .field("agent_last_name", c.agent_last_name)
      .field("agent_email", c.agent_email)
      .end_object();
  w.key("messages").begin_array();
}

void end_conversation_detail(JsonWriter& w, std::int64_t message_count) {
  w.end_array();
  w.field("message_count", message_count).end_object();
}

void write_conversation_detail(JsonWriter& w, const domain::ConversationWithMessages& detail) {
  begin_conversation_detail(w, detail.conversation);
  for (const auto& m : detail.messages) write_message(w, m);
  end_conversation_detail(w, static_cast<std::int64_t>(detail.messages.size()));
}

void write_message(JsonWriter& w, const domain::Message& m) {
  w.begin_object()
      .field("id", m.id.value)
      .field("sender_type", m.sender_type)
      .field("content", m.content)
      .key("attachments");
  m.attachments_json ? w.raw(*m.attachments_json) : w.null();
  w.field("status", m.status);
  w.field("created_at", m.created_at);
  w.field("sender_name", m.sender_name).end_object();
}

void write_conversation_patched(JsonWriter& w, const domain::ConversationPatchResult& r) {
  w.begin_object()
      .field("id", r.id.value)
      .field("status", domain::to_string(r.status))
      .field("tags", r.tags);
  w.field("updated_at", r.updated_at);
  w.end_object();
}

void write_deleted(JsonWriter& w, const std::string& id) {
  w.begin_object().field("deleted", true).field("id", id).end_object();
}

}  // namespace leadline::record_json
