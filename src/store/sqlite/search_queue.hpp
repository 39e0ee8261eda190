// The trigram indexes' queued changes (migration 0015), applied by every SQLite write
// transaction just before it commits, so FTS5 writes one index segment per commit.
#pragma once

#include "store/sql/connection.hpp"

namespace leadline::store::sqlite {

// Applies, in order, the changes the search triggers queued in this transaction (or left by a
// writer that never applied them), and empties the queues. Cheap when they are empty.
void apply_search_queues(sql::Connection& conn);

}  // namespace leadline::store::sqlite
