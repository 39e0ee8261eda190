// SQL for leads. Callers hold the transaction.
#pragma once

#include <optional>

#include "domain/records.hpp"
#include "store/list_statements.hpp"
#include "store/postgres/pg_connection.hpp"
#include "store/store.hpp"

namespace leadline::store::postgres {

// The created lead, without rep (the create response carries none).
domain::Lead insert_lead(Connection& conn, const domain::WorkspaceId& ws,
                         const domain::NewLead& lead, domain::Timestamp now);

// With the assigned rep's name and e-mail when there is one.
std::optional<domain::Lead> select_lead(Connection& conn, const domain::WorkspaceId& ws,
                                        const domain::LeadId& id);

// Locks the lead's row for the rest of the transaction, so concurrent PATCHes apply one
// after the other.
UpdateResult<domain::Lead> update_lead(Connection& conn, const domain::WorkspaceId& ws,
                                       const domain::LeadId& id, const domain::LeadPatch& patch,
                                       domain::Timestamp now);

bool delete_lead(Connection& conn, const domain::WorkspaceId& ws, const domain::LeadId& id);

// The SQL list_leads runs, for query plan checks.
ListSql lead_list_sql(const domain::WorkspaceId& ws, const LeadListQuery& query);

Page<domain::Lead> list_leads(Connection& conn, const domain::WorkspaceId& ws,
                              const LeadListQuery& query);

}  // namespace leadline::store::postgres
