// Leads: insert with folded helper columns, read with the rep joined, lock-compare-write
// PATCH, and keyset-paged lists.
#include "store/postgres/lead_queries.hpp"

#include <stdexcept>

#include "domain/unicode_text.hpp"
#include "domain/uuid.hpp"
#include "store/folded_text.hpp"
#include "store/json_string_array.hpp"
#include "store/postgres/list_page.hpp"
#include "store/postgres/row_values.hpp"
#include "store/postgres/workspace_queries.hpp"
#include "store/record_patches.hpp"

namespace leadline::store::postgres {

namespace {

constexpr const char* kLeadColumns =
    "l.id, l.visitor_name, l.visitor_email, l.visitor_phone, l.visitor_company, "
    "l.pipeline_stage, l.need_summary, l.tags, l.source, l.expected_billing_amount, "
    "l.lead_score, l.assigned_rep_id, r.first_name, r.last_name, r.email, l.created_at, "
    "l.updated_at";
constexpr const char* kLeadFrom =
    "leads l LEFT JOIN reps r ON r.workspace_id = l.workspace_id AND r.id = l.assigned_rep_id";

domain::PipelineStage read_stage(const Row& row, int col) {
  const std::string text = row.text(col);
  const auto stage = domain::parse_pipeline_stage(text);
  if (!stage) throw std::runtime_error("stored lead has unknown pipeline_stage " + text);
  return *stage;
}

domain::Lead read_lead(const Row& row) {
  domain::Lead l;
  l.id.value = row.text(0);
  l.visitor_name = row.text(1);
  l.visitor_email = row.opt_text(2);
  l.visitor_phone = row.opt_text(3);
  l.visitor_company = row.opt_text(4);
  l.pipeline_stage = read_stage(row, 5);
  l.need_summary = row.text(6);
  l.tags = decode_string_array(row.text(7));
  l.source = row.text(8);
  l.expected_billing_amount = row.opt_real(9);
  l.lead_score = row.opt_real(10);
  if (!row.is_null(11)) {
    l.assigned_rep_id = domain::RepId{row.text(11)};
    if (!row.is_null(12)) l.rep = domain::RepSummary{row.text(12), row.text(13), row.text(14)};
  }
  l.created_at = read_timestamp(row, 15);
  l.updated_at = read_timestamp(row, 16);
  return l;
}

std::optional<domain::Lead> first_lead(const Result& r) {
  if (r.rows() == 0) return std::nullopt;
  return read_lead(Row(r, 0));
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
  conn.query(
      "INSERT INTO leads (id, workspace_id, visitor_name, visitor_email, visitor_phone, "
      "visitor_company, pipeline_stage, need_summary, tags, source, expected_billing_amount, "
      "lead_score, created_at, updated_at, visitor_name_folded, search_folded) "
      "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11, $12, $13, $14, $15, $16)",
      Params()
          .text(out.id.value)
          .text(ws.value)
          .text(out.visitor_name)
          .opt_text(out.visitor_email)
          .opt_text(out.visitor_phone)
          .opt_text(out.visitor_company)
          .text(domain::to_string(out.pipeline_stage))
          .text(out.need_summary)
          .text(encode_string_array(out.tags))
          .text(out.source)
          .opt_real(out.expected_billing_amount)
          .opt_real(out.lead_score)
          .int64(out.created_at.unix_ms)
          .int64(out.updated_at.unix_ms)
          .text(domain::case_fold(out.visitor_name))
          .text(lead_search_text(out.visitor_name, out.visitor_email, out.visitor_company)));
  return out;
}

std::optional<domain::Lead> select_lead(Connection& conn, const domain::WorkspaceId& ws,
                                        const domain::LeadId& id) {
  return first_lead(conn.query(std::string("SELECT ") + kLeadColumns + " FROM " + kLeadFrom +
                                   " WHERE l.workspace_id = $1 AND l.id = $2",
                               Params().text(ws.value).text(id.value)));
}

UpdateResult<domain::Lead> update_lead(Connection& conn, const domain::WorkspaceId& ws,
                                       const domain::LeadId& id, const domain::LeadPatch& patch,
                                       domain::Timestamp now) {
  const auto current =
      first_lead(conn.query(std::string("SELECT ") + kLeadColumns + " FROM " + kLeadFrom +
                                " WHERE l.workspace_id = $1 AND l.id = $2 FOR UPDATE OF l",
                            Params().text(ws.value).text(id.value)));
  if (!current) return NotFound{};
  if (patch.assigned_rep_id.value && !rep_in_workspace(conn, ws, *patch.assigned_rep_id.value)) {
    return InvalidReference{"assigned_rep_id"};
  }
  domain::Lead next = apply_patch(*current, patch);
  if (same_patchable_fields(*current, next)) return *current;
  next.updated_at = advance_updated_at(current->updated_at, now);
  conn.query(
      "UPDATE leads SET pipeline_stage = $1, assigned_rep_id = $2, visitor_name = $3, "
      "visitor_email = $4, visitor_phone = $5, visitor_company = $6, need_summary = $7, "
      "tags = $8::jsonb, expected_billing_amount = $9, updated_at = $10, "
      "visitor_name_folded = $11, search_folded = $12 WHERE workspace_id = $13 AND id = $14",
      Params()
          .text(domain::to_string(next.pipeline_stage))
          .opt_text(id_value(next.assigned_rep_id))
          .text(next.visitor_name)
          .opt_text(next.visitor_email)
          .opt_text(next.visitor_phone)
          .opt_text(next.visitor_company)
          .text(next.need_summary)
          .text(encode_string_array(next.tags))
          .opt_real(next.expected_billing_amount)
          .int64(next.updated_at.unix_ms)
          .text(domain::case_fold(next.visitor_name))
          .text(lead_search_text(next.visitor_name, next.visitor_email, next.visitor_company))
          .text(ws.value)
          .text(id.value));
  // Read back so the rep summary matches the new assignment.
  return *select_lead(conn, ws, id);
}

bool delete_lead(Connection& conn, const domain::WorkspaceId& ws, const domain::LeadId& id) {
  return conn.query("DELETE FROM leads WHERE workspace_id = $1 AND id = $2",
                    Params().text(ws.value).text(id.value))
             .affected() > 0;
}

ListSql lead_list_sql(const domain::WorkspaceId& ws, const LeadListQuery& query) {
  ListSql sql;
  sql.columns = kLeadColumns;
  sql.from = kLeadFrom;
  sql.where = "l.workspace_id = " + bind(sql, ws.value);
  if (query.stage) {
    sql.where +=
        " AND l.pipeline_stage = " + bind(sql, std::string(domain::to_string(*query.stage)));
  }
  if (!query.search_folded.empty()) {
    // Served by the trigram index on search_folded.
    sql.where += " AND l.search_folded LIKE " + bind(sql, contains_pattern(query.search_folded));
  }
  sql.keys = sort_keys(query.sort.field);
  sql.id_expr = "l.id";
  sql.direction = query.sort.direction;
  return sql;
}

Page<domain::Lead> list_leads(Connection& conn, const domain::WorkspaceId& ws,
                              const LeadListQuery& query) {
  return run_list<domain::Lead>(conn, lead_list_sql(ws, query), query.page, read_lead);
}

}  // namespace leadline::store::postgres
