// SQL for leads. Callers hold the transaction; writes run on the writer connection.
#pragma once

#include <optional>

#include "domain/records.hpp"
#include "store/sqlite/sqlite_connection.hpp"
#include "store/store.hpp"

namespace leadline::store::sqlite {

// The created lead, without rep (the create response carries none).
domain::Lead insert_lead(Connection& conn, const domain::WorkspaceId& ws,
                         const domain::NewLead& lead, domain::Timestamp now);

// With the assigned rep's name and e-mail when there is one.
std::optional<domain::Lead> select_lead(Connection& conn, const domain::WorkspaceId& ws,
                                        const domain::LeadId& id);

UpdateResult<domain::Lead> update_lead(Connection& conn, const domain::WorkspaceId& ws,
                                       const domain::LeadId& id, const domain::LeadPatch& patch,
                                       domain::Timestamp now);

bool delete_lead(Connection& conn, const domain::WorkspaceId& ws, const domain::LeadId& id);

Page<domain::Lead> list_leads(Connection& conn, const domain::WorkspaceId& ws,
                              const LeadListQuery& query);

}  // namespace leadline::store::sqlite
