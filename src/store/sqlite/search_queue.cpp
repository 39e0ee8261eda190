// One INSERT ... SELECT per trigram index: FTS5 takes the whole queue within one statement, so
// it holds the changes in memory and writes them as one segment at the commit. In rowid order:
// FTS5 writes out what it holds whenever a rowid comes below the one before (a PATCH batch of
// random leads would make a segment per descent); the changes of one row keep their order.
// The DELETEs name their rows: a bare DELETE (SQLite's table clear) rewrites the table's root
// page at every commit, even when the queue is empty.
#include "store/sqlite/search_queue.hpp"

namespace leadline::store::sqlite {

void apply_search_queues(sql::Connection& conn) {
  conn.execute(
      "INSERT INTO leads_search (leads_search, rowid, search_folded) "
      "SELECT command, doc, search_folded FROM leads_search_queue ORDER BY doc, seq");
  conn.execute("DELETE FROM leads_search_queue WHERE seq > 0");
  conn.execute(
      "INSERT INTO contacts_search (contacts_search, rowid, search_folded) "
      "SELECT command, doc, search_folded FROM contacts_search_queue ORDER BY doc, seq");
  conn.execute("DELETE FROM contacts_search_queue WHERE seq > 0");
}

}  // namespace leadline::store::sqlite
