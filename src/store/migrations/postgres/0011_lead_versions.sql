-- The version of a workspace's leads, for the search result cache (store/search_result_cache.hpp,
-- docs/design.md "Search result cache"): spread over 16 shard rows chosen by the writing
-- backend's pid, as record_counts is, so that concurrent lead writes seldom wait on one row's
-- lock until the other commits. Every statement that inserts, updates or deletes leads (the API,
-- an import's COPY, the retention purge, another process) raises its shard's counter once per
-- workspace it touched, in its own transaction; a search sums the workspace's counters in the
-- snapshot it answers from. Counters only rise and rows are never deleted, so a sum never comes
-- back with other leads behind it. A workspace without rows is at 0, which is also where every
-- workspace that existed before this migration starts (no cache entry outlives the process).
CREATE TABLE lead_versions (
  workspace_id TEXT COLLATE "C" NOT NULL,
  shard SMALLINT NOT NULL,
  version BIGINT NOT NULL,
  PRIMARY KEY (workspace_id, shard)
);

-- Once per statement, not per row: an import's COPY of thousands of leads raises each counter
-- once instead of walking one row's version chain thousands of times.
CREATE FUNCTION lead_versions_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO lead_versions (workspace_id, shard, version)
    SELECT DISTINCT workspace_id, (pg_backend_pid() % 16)::smallint, 1 FROM changed_leads
    ON CONFLICT (workspace_id, shard) DO UPDATE SET version = lead_versions.version + 1;
  RETURN NULL;
END;
$$;

-- One trigger per event: a trigger with a transition table fires on one event only. An update
-- never moves a lead to another workspace, so its new rows name every workspace it touched.
CREATE TRIGGER leads_versioned_insert AFTER INSERT ON leads
  REFERENCING NEW TABLE AS changed_leads
  FOR EACH STATEMENT EXECUTE FUNCTION lead_versions_bump();
CREATE TRIGGER leads_versioned_update AFTER UPDATE ON leads
  REFERENCING NEW TABLE AS changed_leads
  FOR EACH STATEMENT EXECUTE FUNCTION lead_versions_bump();
CREATE TRIGGER leads_versioned_delete AFTER DELETE ON leads
  REFERENCING OLD TABLE AS changed_leads
  FOR EACH STATEMENT EXECUTE FUNCTION lead_versions_bump();
