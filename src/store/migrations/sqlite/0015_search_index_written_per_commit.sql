-- The trigram indexes take a transaction's changes in one statement, just before it commits,
-- instead of one statement per written record. FTS5 (SQLite 3.40) writes what it holds as a new
-- index segment at every statement savepoint of the transaction it is part of, and every write
-- statement with a trigger opens one: a group commit of 32 created leads wrote 32 one-row
-- segments and merged them, about half of each member's time (BENCHMARKS.md, "Round 7").
--
-- So the triggers queue each change, in order, and the commit applies the queue
-- (store/sqlite/search_queue.cpp; every write transaction of the server and the CLI ends
-- through it). Between transactions the queues are empty; a writer that commits without
-- applying them (another program on the file) leaves its changes queued, and the next
-- commit through leadline applies them, in order.
CREATE TABLE leads_search_queue (
  seq INTEGER PRIMARY KEY,
  command TEXT,             -- 'delete', or NULL for an insert (FTS5's command column)
  doc INTEGER NOT NULL,     -- the lead's rowid
  search_folded TEXT NOT NULL
) STRICT;
CREATE TABLE contacts_search_queue (
  seq INTEGER PRIMARY KEY,
  command TEXT,
  doc INTEGER NOT NULL,
  search_folded TEXT NOT NULL
) STRICT;

DROP TRIGGER leads_search_insert;
DROP TRIGGER leads_search_delete;
DROP TRIGGER leads_search_update;
DROP TRIGGER contacts_search_insert;
DROP TRIGGER contacts_search_delete;
DROP TRIGGER contacts_search_update;

CREATE TRIGGER leads_search_insert AFTER INSERT ON leads BEGIN
  INSERT INTO leads_search_queue (command, doc, search_folded)
    VALUES (NULL, new.rowid, new.search_folded);
END;
CREATE TRIGGER leads_search_delete AFTER DELETE ON leads BEGIN
  INSERT INTO leads_search_queue (command, doc, search_folded)
    VALUES ('delete', old.rowid, old.search_folded);
END;
CREATE TRIGGER leads_search_update AFTER UPDATE OF search_folded ON leads
  WHEN old.search_folded IS NOT new.search_folded BEGIN
  INSERT INTO leads_search_queue (command, doc, search_folded)
    VALUES ('delete', old.rowid, old.search_folded), (NULL, new.rowid, new.search_folded);
END;

CREATE TRIGGER contacts_search_insert AFTER INSERT ON contacts BEGIN
  INSERT INTO contacts_search_queue (command, doc, search_folded)
    VALUES (NULL, new.rowid, new.search_folded);
END;
CREATE TRIGGER contacts_search_delete AFTER DELETE ON contacts BEGIN
  INSERT INTO contacts_search_queue (command, doc, search_folded)
    VALUES ('delete', old.rowid, old.search_folded);
END;
CREATE TRIGGER contacts_search_update AFTER UPDATE OF search_folded ON contacts
  WHEN old.search_folded IS NOT new.search_folded BEGIN
  INSERT INTO contacts_search_queue (command, doc, search_folded)
    VALUES ('delete', old.rowid, old.search_folded), (NULL, new.rowid, new.search_folded);
END;
