// Leads: insert with folded helper columns, read with the rep joined, compare-then-write
// PATCH, and keyset-paged lists.
#include "store/sqlite/lead_queries.hpp"

#include <stdexcept>

#include "domain/unicode_text.hpp"
#include "domain/uuid.hpp"
#include "store/folded_text.hpp"
#include "store/json_string_array.hpp"
#include "store/record_patches.hpp"
#include "store/sqlite/list_page.hpp"
#include "store/sqlite/row_values.hpp"
#include "store/sqlite/workspace_queries.hpp"

namespace leadline::store::sqlite {

namespace {

constexpr const char* kLeadColumns =
    "l.id, l.visitor_name, l.visitor_email, l.visitor_phone, l.visitor_company, "
    "l.pipeline_stage, l.need_summary, l.tags, l.source, l.expected_billing_amount, "
    "l.lead_score, l.assigned_rep_id, r.first_name, r.last_name, r.email, l.created_at, "
    "l.updated_at";
constexpr const char* kLeadFrom =
    "leads l LEFT JOIN reps r ON r.workspace_id = l.workspace_id AND r.id = l.assigned_rep_id";

domain::PipelineStage read_stage(const Query& q, int col) {
  const std::string text = q.text(col);
  const auto stage = domain::parse_pipeline_stage(text);
  if (!stage) throw std::runtime_error("stored lead has unknown pipeline_stage " + text);
  return *stage;
}

domain::Lead read_lead(const Query& q) {
  domain::Lead l;
  l.id.value = q.text(0);
  l.visitor_name = q.text(1);
  l.visitor_email = q.opt_text(2);
  l.visitor_phone = q.opt_text(3);
  l.visitor_company = q.opt_text(4);
  l.pipeline_stage = read_stage(q, 5);
  l.need_summary = q.text(6);
  l.tags = decode_string_array(q.text(7));
  l.source = q.text(8);
  l.expected_billing_amount = q.opt_real(9);
  l.lead_score = q.opt_real(10);
  if (!q.is_null(11)) {
    l.assigned_rep_id = domain::RepId{q.text(11)};
    if (!q.is_null(12)) l.rep = domain::RepSummary{q.text(12), q.text(13), q.text(14)};
  }
  l.created_at = read_timestamp(q, 15);
  l.updated_at = read_timestamp(q, 16);
  return l;
}

std::vector<SortKey> sort_keys(LeadSortField field) {
  switch (field) {
    case LeadSortField::kUpdatedAt:
      return {{"l.updated_at", false}};
    case LeadSortField::kLeadScore:
      return {{"l.lead_score", true}};
    case LeadSortField::kVisitorName:
      return {{"l.visitor_name_folded", false}};
    case LeadSortField::kCreatedAt:
      break;
  }
  return {{"l.created_at", false}};
}

}  // namespace

domain::Lead insert_lead(Connection& conn, const domain::WorkspaceId& ws,
                         const domain::NewLead& lead, domain::Timestamp now) {
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
  auto q = conn.query(
      "INSERT INTO leads (id, workspace_id, visitor_name, visitor_email, visitor_phone, "
      "visitor_company, pipeline_stage, need_summary, tags, source, expected_billing_amount, "
      "lead_score, created_at, updated_at, visitor_name_folded, search_folded) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  q.bind_text(out.id.value)
      .bind_text(ws.value)
      .bind_text(out.visitor_name)
      .bind_opt_text(out.visitor_email)
      .bind_opt_text(out.visitor_phone)
      .bind_opt_text(out.visitor_company)
      .bind_text(domain::to_string(out.pipeline_stage))
      .bind_text(out.need_summary)
      .bind_text(encode_string_array(out.tags))
      .bind_text(out.source)
      .bind_opt_real(out.expected_billing_amount)
      .bind_opt_real(out.lead_score)
      .bind_int(out.created_at.unix_ms)
      .bind_int(out.updated_at.unix_ms)
      .bind_text(domain::case_fold(out.visitor_name))
      .bind_text(lead_search_text(out.visitor_name, out.visitor_email, out.visitor_company))
      .run();
  return out;
}

std::optional<domain::Lead> select_lead(Connection& conn, const domain::WorkspaceId& ws,
                                        const domain::LeadId& id) {
  auto q = conn.query(std::string("SELECT ") + kLeadColumns + " FROM " + kLeadFrom +
                      " WHERE l.workspace_id = ? AND l.id = ?");
  q.bind_text(ws.value).bind_text(id.value);
  if (!q.step()) return std::nullopt;
  return read_lead(q);
}

UpdateResult<domain::Lead> update_lead(Connection& conn, const domain::WorkspaceId& ws,
                                       const domain::LeadId& id, const domain::LeadPatch& patch,
                                       domain::Timestamp now) {
  const auto current = select_lead(conn, ws, id);
  if (!current) return NotFound{};
  if (patch.assigned_rep_id.value && !rep_in_workspace(conn, ws, *patch.assigned_rep_id.value)) {
    return InvalidReference{"assigned_rep_id"};
  }
  domain::Lead next = apply_patch(*current, patch);
  if (same_patchable_fields(*current, next)) return *current;
  next.updated_at = advance_updated_at(current->updated_at, now);
  {
    auto q = conn.query(
        "UPDATE leads SET pipeline_stage = ?, assigned_rep_id = ?, visitor_name = ?, "
        "visitor_email = ?, visitor_phone = ?, visitor_company = ?, need_summary = ?, tags = ?, "
        "expected_billing_amount = ?, updated_at = ?, visitor_name_folded = ?, "
        "search_folded = ? WHERE workspace_id = ? AND id = ?");
    q.bind_text(domain::to_string(next.pipeline_stage));
    if (next.assigned_rep_id) {
      q.bind_text(next.assigned_rep_id->value);
    } else {
      q.bind_null();
    }
    q.bind_text(next.visitor_name)
        .bind_opt_text(next.visitor_email)
        .bind_opt_text(next.visitor_phone)
        .bind_opt_text(next.visitor_company)
        .bind_text(next.need_summary)
        .bind_text(encode_string_array(next.tags))
        .bind_opt_real(next.expected_billing_amount)
        .bind_int(next.updated_at.unix_ms)
        .bind_text(domain::case_fold(next.visitor_name))
        .bind_text(lead_search_text(next.visitor_name, next.visitor_email, next.visitor_company))
        .bind_text(ws.value)
        .bind_text(id.value)
        .run();
  }
  // Read back so the rep summary matches the new assignment.
  return *select_lead(conn, ws, id);
}

bool delete_lead(Connection& conn, const domain::WorkspaceId& ws, const domain::LeadId& id) {
  auto q = conn.query("DELETE FROM leads WHERE workspace_id = ? AND id = ?");
  q.bind_text(ws.value).bind_text(id.value).run();
  return conn.changes() > 0;
}

Page<domain::Lead> list_leads(Connection& conn, const domain::WorkspaceId& ws,
                              const LeadListQuery& query) {
  ListSql sql;
  sql.columns = kLeadColumns;
  sql.from = kLeadFrom;
  sql.where = "l.workspace_id = ?";
  sql.params.emplace_back(ws.value);
  if (query.stage) {
    sql.where += " AND l.pipeline_stage = ?";
    sql.params.emplace_back(std::string(domain::to_string(*query.stage)));
  }
  if (!query.search_folded.empty()) {
    // instr, unlike LIKE, has no wildcard characters: %, _ and \ match themselves.
    sql.where += " AND instr(l.search_folded, ?) > 0";
    sql.params.emplace_back(query.search_folded);
  }
  sql.keys = sort_keys(query.sort.field);
  sql.id_expr = "l.id";
  sql.direction = query.sort.direction;
  return run_list<domain::Lead>(conn, sql, query.page, read_lead);
}

}  // namespace leadline::store::sqlite
