// Fuzzes lead request bodies: bytes -> strict JSON parse -> the lead create and patch decoders,
// checking that whatever they accept obeys the lead field rules.
#include "api/record_bodies.hpp"
#include "body_checks.hpp"

using namespace leadline;
namespace lim = domain::limits;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto body = fuzz::parse_body(fuzz::as_text(data, size));
  if (!body) return 0;

  fuzz::check_decoded(api::decode_lead_create(*body), [](const domain::NewLead& lead) {
    fuzz::check_required(lead.visitor_name, lim::kLeadVisitorName);
    fuzz::check_optional_email(lead.visitor_email);
    fuzz::check_optional_text(lead.visitor_phone, lim::kLeadVisitorPhone);
    fuzz::check_optional_text(lead.visitor_company, lim::kLeadVisitorCompany);
    fuzz::check_text(lead.need_summary, lim::kLeadNeedSummary);
    fuzz::check_tags(lead.tags);
    fuzz::check_required(lead.source, lim::kLeadSource);
    fuzz::check_optional_amount(lead.expected_billing_amount);
    FUZZ_CHECK(!lead.lead_score && !lead.created_at, "the API set an import-only lead field");
  });

  fuzz::check_decoded(api::decode_lead_patch(*body), [](const domain::LeadPatch& patch) {
    fuzz::check_update(patch.assigned_rep_id, [](const auto& id) { fuzz::check_id(id.value); });
    if (patch.visitor_name) fuzz::check_required(*patch.visitor_name, lim::kLeadVisitorName);
    fuzz::check_update(patch.visitor_email, [](const auto& s) { fuzz::check_email(s); });
    fuzz::check_update(patch.visitor_phone,
                       [](const auto& s) { fuzz::check_text(s, lim::kLeadVisitorPhone); });
    fuzz::check_update(patch.visitor_company,
                       [](const auto& s) { fuzz::check_text(s, lim::kLeadVisitorCompany); });
    fuzz::check_update(patch.need_summary,
                       [](const auto& s) { fuzz::check_text(s, lim::kLeadNeedSummary); });
    if (patch.tags) fuzz::check_tags(*patch.tags);
    fuzz::check_update(patch.expected_billing_amount, [](double d) { fuzz::check_amount(d); });
  });
  return 0;
}
