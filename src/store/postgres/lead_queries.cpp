// Leads: insert with folded helper columns, read with the rep joined, lock-compare-write
// PATCH, and keyset-paged lists.
#include "store/postgres/lead_queries.hpp"

#include "domain/unicode_text.hpp"
#include "store/folded_text.hpp"
#include "store/json_string_array.hpp"
#include "store/list_sort_keys.hpp"
#include "store/new_records.hpp"
#include "store/postgres/list_page.hpp"
#include "store/postgres/row_values.hpp"
#include "store/postgres/workspace_queries.hpp"
#include "store/record_columns.hpp"
#include "store/record_patches.hpp"
#include "store/record_readers.hpp"

namespace leadline::store::postgres {

namespace {

std::optional<domain::Lead> first_lead(const Result& r) {
  if (r.rows() == 0) return std::nullopt;
  return read_lead(Row(r, 0));
}

}  // namespace

domain::Lead insert_lead(Connection& conn, const domain::WorkspaceId& ws,
                         const domain::NewLead& lead, domain::Timestamp now) {
  const domain::Lead out = new_lead_record(lead, now);
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
    sql.count_from = "leads l";
  } else {
    count_from_record_counts(
        sql, "lead", ws.value,
        query.stage ? std::optional<std::string>(domain::to_string(*query.stage)) : std::nullopt,
        postgres_dialect());
  }
  sql.keys = lead_sort_keys(query.sort.field);
  sql.id_expr = "l.id";
  sql.direction = query.sort.direction;
  return sql;
}

Page<domain::Lead> list_leads(Connection& conn, const domain::WorkspaceId& ws,
                              const LeadListQuery& query) {
  return run_list<domain::Lead>(conn, lead_list_sql(ws, query), query.page, read_lead<Row>);
}

}  // namespace leadline::store::postgres
