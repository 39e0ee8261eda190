-- The shard row of record_counts (0002) and lead_versions (0011) that a session's writes raise.
-- Chosen by the backend's pid, two of leadline's pooled connections shared a row one time in
-- three or so (16 rows, 8 to 16 busy connections), and then each write waited for the other's
-- commit on that row: PATCH at 100k leads spent most of its time in Lock:transactionid waits
-- (pg_stat_activity samples) with a p99 of 140-200 ms. leadline's pool now gives each of its
-- connections its own shard (SET leadline.write_shard, store/postgres/connection_pool.cpp);
-- any other session (psql, a script) keeps the pid's. Only which row is raised changes: reads
-- sum all 16 rows, as before.
CREATE FUNCTION leadline_write_shard() RETURNS smallint LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT (COALESCE(NULLIF(current_setting('leadline.write_shard', true), '')::integer,
                   pg_backend_pid()) % 16)::smallint
$$;

CREATE OR REPLACE FUNCTION lead_versions_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO lead_versions (workspace_id, shard, version)
    SELECT DISTINCT workspace_id, leadline_write_shard(), 1 FROM changed_leads
    ON CONFLICT (workspace_id, shard) DO UPDATE SET version = lead_versions.version + 1;
  RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION record_count_add(ws TEXT, kind TEXT, which TEXT, delta BIGINT)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO record_counts AS c (workspace_id, record_type, bucket, shard, n)
  VALUES (ws, kind, which, leadline_write_shard(), delta)
  ON CONFLICT (workspace_id, record_type, bucket, shard) DO UPDATE SET n = c.n + EXCLUDED.n;
END;
$$;

-- TG_ARGV[0] is the record type, TG_ARGV[1] the bucket column ('' for none). PL/pgSQL plans
-- NEW.pipeline_stage only when that branch runs, so one function serves every table.
CREATE OR REPLACE FUNCTION record_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_bucket TEXT := '';
  new_bucket TEXT := '';
BEGIN
  IF current_setting('leadline.deferred_counts', true) = 'on' THEN
    RETURN NULL;
  END IF;
  IF TG_ARGV[1] = 'pipeline_stage' THEN
    IF TG_OP <> 'INSERT' THEN old_bucket := OLD.pipeline_stage; END IF;
    IF TG_OP <> 'DELETE' THEN new_bucket := NEW.pipeline_stage; END IF;
  ELSIF TG_ARGV[1] = 'status' THEN
    IF TG_OP <> 'INSERT' THEN old_bucket := OLD.status; END IF;
    IF TG_OP <> 'DELETE' THEN new_bucket := NEW.status; END IF;
  ELSIF TG_ARGV[1] <> '' THEN
    IF TG_OP <> 'INSERT' THEN old_bucket := to_jsonb(OLD) ->> TG_ARGV[1]; END IF;
    IF TG_OP <> 'DELETE' THEN new_bucket := to_jsonb(NEW) ->> TG_ARGV[1]; END IF;
  END IF;
  IF TG_OP = 'UPDATE' AND old_bucket IS NOT DISTINCT FROM new_bucket THEN
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO record_counts AS c (workspace_id, record_type, bucket, shard, n)
    VALUES (OLD.workspace_id, TG_ARGV[0], old_bucket, leadline_write_shard(), -1)
    ON CONFLICT (workspace_id, record_type, bucket, shard) DO UPDATE SET n = c.n - 1;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO record_counts AS c (workspace_id, record_type, bucket, shard, n)
    VALUES (NEW.workspace_id, TG_ARGV[0], new_bucket, leadline_write_shard(), 1)
    ON CONFLICT (workspace_id, record_type, bucket, shard) DO UPDATE SET n = c.n + 1;
  END IF;
  RETURN NULL;
END;
$$;
