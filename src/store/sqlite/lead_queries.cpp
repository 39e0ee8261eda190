// Leads: insert with folded helper columns, read with the rep joined, compare-then-write
// PATCH, and keyset-paged lists.
#include "store/sqlite/lead_queries.hpp"

#include "domain/unicode_text.hpp"
#include "store/folded_text.hpp"
#include "store/json_string_array.hpp"
#include "store/list_sort_keys.hpp"
#include "store/new_records.hpp"
#include "store/record_columns.hpp"
#include "store/record_patches.hpp"
#include "store/record_readers.hpp"
#include "store/sqlite/list_page.hpp"
#include "store/sqlite/workspace_queries.hpp"

namespace leadline::store::sqlite {

domain::Lead insert_lead(Connection& conn, const domain::WorkspaceId& ws,
                         const domain::NewLead& lead, domain::Timestamp now) {
  const domain::Lead out = new_lead_record(lead, now);
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
    sql.count_from = "leads l";
    add_search(sql, "l", "leads_search", "search_folded", query.search_folded, sql.count_from);
  } else {
    count_from_record_counts(
        sql, "lead", ws.value,
        query.stage ? std::optional<std::string>(domain::to_string(*query.stage)) : std::nullopt,
        sqlite_dialect());
  }
  sql.keys = lead_sort_keys(query.sort.field);
  sql.id_expr = "l.id";
  sql.direction = query.sort.direction;
  return run_list<domain::Lead>(conn, sql, query.page, read_lead<Query>);
}

}  // namespace leadline::store::sqlite
