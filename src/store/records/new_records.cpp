// Ids are UUIDv7 of the creation time so that id order follows creation order.
#include "store/records/new_records.hpp"

#include "domain/uuid.hpp"
#include "store/records/import_rules.hpp"

namespace leadline::store {

domain::Lead new_lead_record(const domain::NewLead& lead, domain::Timestamp now) {
  domain::Lead out;
  out.id.value = domain::new_uuid_v7(now.unix_ms);
  out.visitor_name = lead.visitor_name;
  out.visitor_email = lead.visitor_email;
  out.visitor_phone = lead.visitor_phone;
  out.visitor_company = lead.visitor_company;
  out.pipeline_stage = lead.pipeline_stage;
  out.need_summary = lead.need_summary;
  out.tags = lead.tags;
  out.source = lead.source;
  out.expected_billing_amount = lead.expected_billing_amount;
  out.lead_score = lead.lead_score;
  out.created_at = lead.created_at.value_or(now);
  out.updated_at = out.created_at;
  return out;
}

domain::Contact new_contact_record(const domain::NewContact& contact, domain::Timestamp now) {
  domain::Contact out;
  out.id.value = domain::new_uuid_v7(now.unix_ms);
  out.first_name = contact.first_name;
  out.last_name = contact.last_name;
  out.email = contact.email;
  out.phone = contact.phone;
  out.company_name = contact.company_name;
  out.tags = contact.tags;
  out.profile_notes = contact.profile_notes;
  out.created_at = contact.created_at.value_or(now);
  out.updated_at = out.created_at;
  out.last_activity = out.created_at;
  return out;
}

domain::Conversation new_conversation_record(const domain::NewConversation& conversation,
                                             domain::Timestamp now) {
  domain::Conversation out;
  out.id.value = domain::new_uuid_v7(now.unix_ms);
  out.source = conversation.source;
  out.status = conversation.status;
  out.tags = conversation.tags;
  out.agent_id = conversation.agent_id;
  out.department_id = conversation.department_id;
  out.created_at = conversation.created_at.value_or(now);
  out.updated_at = conversation_updated_at(conversation, out.created_at);
  return out;
}

domain::Person new_person_record(const domain::Person& person, domain::Timestamp now) {
  domain::Person out = person;
  out.id = domain::new_uuid_v7(now.unix_ms);
  out.created_at = now;
  return out;
}

}  // namespace leadline::store
