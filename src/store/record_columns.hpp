// SELECT column lists whose SQL is the same in both backends; the readers in
// record_readers.hpp expect exactly these orders.
#pragma once

namespace leadline::store {

// Read with read_lead; needs kLeadFrom for the rep columns.
inline constexpr const char* kLeadColumns =
    "l.id, l.visitor_name, l.visitor_email, l.visitor_phone, l.visitor_company, "
    "l.pipeline_stage, l.need_summary, l.tags, l.source, l.expected_billing_amount, "
    "l.lead_score, l.assigned_rep_id, r.first_name, r.last_name, r.email, l.created_at, "
    "l.updated_at";
inline constexpr const char* kLeadFrom =
    "leads l LEFT JOIN reps r ON r.workspace_id = l.workspace_id AND r.id = l.assigned_rep_id";

// Read with read_key.
inline constexpr const char* kKeyColumns =
    "id, workspace_id, name, prefix, scopes, allowed_ips, created_at, revoked_at";

}  // namespace leadline::store
