-- Counts kept by triggers, so an unfiltered (or stage/status-filtered) total_count sums a few
-- rows instead of counting every record of the workspace.
--
-- Each workspace's count is spread over 16 shard rows, chosen by the writing backend's pid, so
-- concurrent inserts seldom wait on one counter row's lock until the other commits. A count
-- sums the shards in the reader's snapshot, so it is exact.
CREATE TABLE record_counts (
  workspace_id TEXT COLLATE "C" NOT NULL,
  record_type TEXT COLLATE "C" NOT NULL,
  bucket TEXT COLLATE "C" NOT NULL,
  shard SMALLINT NOT NULL,
  n BIGINT NOT NULL,
  PRIMARY KEY (workspace_id, record_type, bucket, shard)
);

INSERT INTO record_counts (workspace_id, record_type, bucket, shard, n)
  SELECT workspace_id, 'lead', pipeline_stage, 0, COUNT(*) FROM leads
  GROUP BY workspace_id, pipeline_stage;
INSERT INTO record_counts (workspace_id, record_type, bucket, shard, n)
  SELECT workspace_id, 'contact', '', 0, COUNT(*) FROM contacts GROUP BY workspace_id;
INSERT INTO record_counts (workspace_id, record_type, bucket, shard, n)
  SELECT workspace_id, 'conversation', status, 0, COUNT(*) FROM conversations
  GROUP BY workspace_id, status;

CREATE FUNCTION record_count_add(ws TEXT, kind TEXT, which TEXT, delta BIGINT) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO record_counts (workspace_id, record_type, bucket, shard, n)
  VALUES (ws, kind, which, (pg_backend_pid() % 16)::smallint, delta)
  ON CONFLICT (workspace_id, record_type, bucket, shard)
  DO UPDATE SET n = record_counts.n + EXCLUDED.n;
$$;

-- TG_ARGV[0] is the record type, TG_ARGV[1] the bucket column ('' for none).
--
-- An import sets leadline.deferred_counts for its transaction and recounts its workspace once at
-- the end (record_counts_recount): thousands of updates of one counter row inside one
-- transaction leave a version chain that every further update walks, which is quadratic.
CREATE FUNCTION record_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_bucket TEXT := '';
  new_bucket TEXT := '';
BEGIN
  IF current_setting('leadline.deferred_counts', true) = 'on' THEN
    RETURN NULL;
  END IF;
  IF TG_ARGV[1] <> '' THEN
    IF TG_OP <> 'INSERT' THEN old_bucket := to_jsonb(OLD) ->> TG_ARGV[1]; END IF;
    IF TG_OP <> 'DELETE' THEN new_bucket := to_jsonb(NEW) ->> TG_ARGV[1]; END IF;
  END IF;
  IF TG_OP = 'INSERT' THEN
    PERFORM record_count_add(NEW.workspace_id, TG_ARGV[0], new_bucket, 1);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM record_count_add(OLD.workspace_id, TG_ARGV[0], old_bucket, -1);
  ELSIF old_bucket IS DISTINCT FROM new_bucket THEN
    PERFORM record_count_add(OLD.workspace_id, TG_ARGV[0], old_bucket, -1);
    PERFORM record_count_add(NEW.workspace_id, TG_ARGV[0], new_bucket, 1);
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER leads_counted AFTER INSERT OR DELETE ON leads
  FOR EACH ROW EXECUTE FUNCTION record_counts_track('lead', 'pipeline_stage');
CREATE TRIGGER leads_recounted AFTER UPDATE OF pipeline_stage ON leads
  FOR EACH ROW WHEN (OLD.pipeline_stage IS DISTINCT FROM NEW.pipeline_stage)
  EXECUTE FUNCTION record_counts_track('lead', 'pipeline_stage');
CREATE TRIGGER contacts_counted AFTER INSERT OR DELETE ON contacts
  FOR EACH ROW EXECUTE FUNCTION record_counts_track('contact', '');
CREATE TRIGGER conversations_counted AFTER INSERT OR DELETE ON conversations
  FOR EACH ROW EXECUTE FUNCTION record_counts_track('conversation', 'status');
CREATE TRIGGER conversations_recounted AFTER UPDATE OF status ON conversations
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION record_counts_track('conversation', 'status');

-- The counts of one workspace, from its rows. Increments of transactions still running are
-- not in the recount and are added to the new rows when those transactions commit.
CREATE FUNCTION record_counts_recount(ws TEXT) RETURNS void LANGUAGE sql AS $$
  DELETE FROM record_counts WHERE workspace_id = ws;
  INSERT INTO record_counts (workspace_id, record_type, bucket, shard, n)
    SELECT ws, 'lead', pipeline_stage, 0, COUNT(*) FROM leads WHERE workspace_id = ws
    GROUP BY pipeline_stage;
  INSERT INTO record_counts (workspace_id, record_type, bucket, shard, n)
    SELECT ws, 'contact', '', 0, COUNT(*) FROM contacts WHERE workspace_id = ws HAVING COUNT(*) > 0;
  INSERT INTO record_counts (workspace_id, record_type, bucket, shard, n)
    SELECT ws, 'conversation', status, 0, COUNT(*) FROM conversations WHERE workspace_id = ws
    GROUP BY status;
$$;
