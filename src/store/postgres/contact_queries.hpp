// SQL for contacts. Callers hold the transaction.
#pragma once

#include <optional>
#include <string>

#include "domain/records.hpp"
#include "store/postgres/pg_connection.hpp"
#include "store/store.hpp"

namespace leadline::store::postgres {

// EmailConflict naming the existing contact when the address is taken in the workspace,
// case-insensitively; the unique index decides, so of concurrent creates from any number of
// instances exactly one succeeds.
CreateResult<domain::Contact> insert_contact(Connection& conn, const domain::WorkspaceId& ws,
                                             const domain::NewContact& contact,
                                             domain::Timestamp now);

std::optional<domain::ContactId> find_contact_by_email(Connection& conn,
                                                       const domain::WorkspaceId& ws,
                                                       const std::string& email);

std::optional<domain::Contact> select_contact(Connection& conn, const domain::WorkspaceId& ws,
                                              const domain::ContactId& id);

// Locks the contact's row for the rest of the transaction.
UpdateResult<domain::Contact> update_contact(Connection& conn, const domain::WorkspaceId& ws,
                                             const domain::ContactId& id,
                                             const domain::ContactPatch& patch,
                                             domain::Timestamp now);

bool delete_contact(Connection& conn, const domain::WorkspaceId& ws, const domain::ContactId& id);

// A message arrived in one of the contact's conversations: last_activity becomes at least `at`.
void raise_contact_activity(Connection& conn, const domain::WorkspaceId& ws,
                            const domain::ContactId& id, domain::Timestamp at);

Page<domain::Contact> list_contacts(Connection& conn, const domain::WorkspaceId& ws,
                                    const ContactListQuery& query);

}  // namespace leadline::store::postgres
