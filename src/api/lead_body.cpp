// Lead request bodies: exactly the fields the contract lists for create and for update.
#include "api/body_fields.hpp"
#include "api/record_bodies.hpp"
#include "domain/field_rules.hpp"

namespace leadline::api {

using namespace body;
namespace lim = domain::limits;

Decoded<domain::NewLead> decode_lead_create(const json::object& o) {
  domain::NewLead lead;
  std::optional<domain::PipelineStage> stage;
  std::optional<domain::Tags> tag_list;
  std::optional<std::string> summary;
  std::optional<std::string> source;
  Error e;
  if ((e = reject_unknown_fields(
           o, {"visitor_name", "visitor_email", "visitor_phone", "visitor_company",
               "pipeline_stage", "need_summary", "tags", "source", "expected_billing_amount"})) ||
      (e = required_text(o, "visitor_name", lim::kLeadVisitorName, lead.visitor_name)) ||
      (e = optional_email(o, "visitor_email", lead.visitor_email)) ||
      (e = optional_text(o, "visitor_phone", lim::kLeadVisitorPhone, lead.visitor_phone)) ||
      (e = optional_text(o, "visitor_company", lim::kLeadVisitorCompany, lead.visitor_company)) ||
      (e = pipeline_stage(o, "pipeline_stage", stage)) ||
      (e = optional_text(o, "need_summary", lim::kLeadNeedSummary, summary)) ||
      (e = tags(o, "tags", tag_list)) ||
      (e = optional_text(o, "source", lim::kLeadSource, source)) ||
      (e = optional_amount(o, "expected_billing_amount", lead.expected_billing_amount))) {
    return *e;
  }
  if (source) {
    if (auto empty = domain::check_required_text("source", *source, lim::kLeadSource)) {
      return BadRequest{*empty};
    }
    lead.source = std::move(*source);
  }
  if (stage) lead.pipeline_stage = *stage;
  if (summary) lead.need_summary = std::move(*summary);
  if (tag_list) lead.tags = std::move(*tag_list);
  return lead;
}

Decoded<domain::LeadPatch> decode_lead_patch(const json::object& o) {
  domain::LeadPatch patch;
  Error e;
  if ((e = reject_unknown_fields(o, {"pipeline_stage", "assigned_rep_id", "visitor_name",
                                     "visitor_email", "visitor_phone", "visitor_company",
                                     "need_summary", "tags", "expected_billing_amount"})) ||
      (e = pipeline_stage(o, "pipeline_stage", patch.pipeline_stage)) ||
      (e = id_patch(o, "assigned_rep_id", patch.assigned_rep_id)) ||
      (e = text_patch_required(o, "visitor_name", lim::kLeadVisitorName, patch.visitor_name)) ||
      (e = email_patch(o, "visitor_email", patch.visitor_email)) ||
      (e = text_patch(o, "visitor_phone", lim::kLeadVisitorPhone, patch.visitor_phone)) ||
      (e = text_patch(o, "visitor_company", lim::kLeadVisitorCompany, patch.visitor_company)) ||
      (e = text_patch(o, "need_summary", lim::kLeadNeedSummary, patch.need_summary)) ||
      (e = tags(o, "tags", patch.tags)) ||
      (e = amount_patch(o, "expected_billing_amount", patch.expected_billing_amount))) {
    return *e;
  }
  return patch;
}

}  // namespace leadline::api
