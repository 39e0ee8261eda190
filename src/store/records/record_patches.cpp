// PATCH application: a present field replaces the stored one, an absent one keeps it.
#include "store/records/record_patches.hpp"

namespace leadline::store {

domain::Lead apply_patch(domain::Lead lead, const domain::LeadPatch& patch) {
  if (patch.pipeline_stage) lead.pipeline_stage = *patch.pipeline_stage;
  if (patch.assigned_rep_id.present) lead.assigned_rep_id = patch.assigned_rep_id.value;
  if (patch.visitor_name) lead.visitor_name = *patch.visitor_name;
  if (patch.visitor_email.present) lead.visitor_email = patch.visitor_email.value;
  if (patch.visitor_phone.present) lead.visitor_phone = patch.visitor_phone.value;
  if (patch.visitor_company.present) lead.visitor_company = patch.visitor_company.value;
  if (patch.need_summary.present) lead.need_summary = patch.need_summary.value.value_or("");
  if (patch.tags) lead.tags = *patch.tags;
  if (patch.expected_billing_amount.present) {
    lead.expected_billing_amount = patch.expected_billing_amount.value;
  }
  return lead;
}

bool same_patchable_fields(const domain::Lead& a, const domain::Lead& b) {
  return a.pipeline_stage == b.pipeline_stage && a.assigned_rep_id == b.assigned_rep_id &&
         a.visitor_name == b.visitor_name && a.visitor_email == b.visitor_email &&
         a.visitor_phone == b.visitor_phone && a.visitor_company == b.visitor_company &&
         a.need_summary == b.need_summary && a.tags == b.tags &&
         a.expected_billing_amount == b.expected_billing_amount;
}

domain::Contact apply_patch(domain::Contact c, const domain::ContactPatch& patch) {
  if (patch.first_name) c.first_name = *patch.first_name;
  if (patch.last_name.present) c.last_name = patch.last_name.value;
  if (patch.email.present) c.email = patch.email.value;
  if (patch.phone.present) c.phone = patch.phone.value;
  if (patch.company_name.present) c.company_name = patch.company_name.value;
  if (patch.tags) c.tags = *patch.tags;
  if (patch.profile_notes.present) c.profile_notes = patch.profile_notes.value.value_or("");
  return c;
}

bool same_patchable_fields(const domain::Contact& a, const domain::Contact& b) {
  return a.first_name == b.first_name && a.last_name == b.last_name && a.email == b.email &&
         a.phone == b.phone && a.company_name == b.company_name && a.tags == b.tags &&
         a.profile_notes == b.profile_notes;
}

ConversationFields apply_patch(ConversationFields f, const domain::ConversationPatch& patch) {
  if (patch.status) f.status = *patch.status;
  if (patch.tags) f.tags = *patch.tags;
  if (patch.agent_id.present) f.agent_id = patch.agent_id.value;
  if (patch.department_id.present) f.department_id = patch.department_id.value;
  return f;
}

}  // namespace leadline::store
