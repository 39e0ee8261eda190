-- Lead rowids carry their workspace: rowid = (workspace's rowid << 40) + n. A workspace's leads
-- are then one rowid range, which FTS5 filters inside its own index, so a search's total_count
-- is counted from leads_search alone, without reading each match's row to check its workspace.
-- New leads take the next rowid of their workspace's range (the dialect's workspace_rowid);
-- the trigger below refuses any insert that does not, so a new write path cannot mix them.

UPDATE leads SET rowid = rowid + ((SELECT w.rowid FROM workspaces w WHERE w.id = leads.workspace_id) << 40);
INSERT INTO leads_search (leads_search) VALUES ('rebuild');

CREATE TRIGGER leads_rowid_in_workspace AFTER INSERT ON leads
  WHEN new.rowid >> 40 IS NOT (SELECT w.rowid FROM workspaces w WHERE w.id = new.workspace_id)
BEGIN
  SELECT RAISE(ABORT, 'a lead''s rowid must lie in its workspace''s range (migration 0009)');
END;
