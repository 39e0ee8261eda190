// The all-or-nothing intake of an import file: leads, contacts, and conversations with their
// messages. The caller holds the write transaction and rolls it back on failure.
#pragma once

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

}  // namespace leadline::store::postgres
