-- A version per workspace's leads, bumped in the same transaction by every insert, update and
-- delete of one of its leads, whoever writes it (the API, an import, the retention purge,
-- another process on the same file): a search reads it in the snapshot it answers from, and
-- the search result cache (store/search_result_cache.hpp) answers only for the version it was
-- built at. A workspace without a row is at version 0; rows are never deleted, so a version
-- never comes back with other leads behind it.
CREATE TABLE lead_versions (
  workspace_id TEXT PRIMARY KEY,
  version INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

CREATE TRIGGER leads_versioned_insert AFTER INSERT ON leads BEGIN
  INSERT INTO lead_versions (workspace_id, version) VALUES (new.workspace_id, 1)
    ON CONFLICT DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER leads_versioned_delete AFTER DELETE ON leads BEGIN
  INSERT INTO lead_versions (workspace_id, version) VALUES (old.workspace_id, 1)
    ON CONFLICT DO UPDATE SET version = version + 1;
END;
-- Any column: the rep, the stage, the search text and the sort keys all decide a search's page.
CREATE TRIGGER leads_versioned_update AFTER UPDATE ON leads BEGIN
  INSERT INTO lead_versions (workspace_id, version) VALUES (old.workspace_id, 1)
    ON CONFLICT DO UPDATE SET version = version + 1;
  INSERT INTO lead_versions (workspace_id, version)
    SELECT new.workspace_id, 1 WHERE new.workspace_id IS NOT old.workspace_id
    ON CONFLICT DO UPDATE SET version = version + 1;
END;
