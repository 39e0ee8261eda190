// The all-or-nothing intake of an import file: leads, contacts, and conversations with their
// messages. The caller holds the write transaction and rolls it back on failure.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "store/postgres/pg_connection.hpp"
#include "store/store.hpp"

namespace leadline::store::postgres {

// Stores the items in order; stops at the first one that cannot be stored and says which.
std::variant<ImportCounts, ImportFailure> import_items(Connection& conn,
                                                       const domain::WorkspaceId& ws,
                                                       const std::vector<ImportItem>& items,
                                                       domain::Timestamp now);

// The import-only inserts the walk calls; the id is chosen by the walk.
void insert_imported_conversation(Connection& conn, const domain::WorkspaceId& ws,
                                  const std::string& id, const domain::NewConversation& c,
                                  const std::optional<domain::ContactId>& contact_id,
                                  domain::Timestamp created_at, domain::Timestamp updated_at);

void insert_imported_message(Connection& conn, const domain::WorkspaceId& ws,
                             const std::string& conversation_id, const std::string& id,
                             const domain::NewMessage& m);

}  // namespace leadline::store::postgres
