-- Each tag's count in record_counts (record_type 'contact_tag' / 'conversation_tag', bucket =
-- the tag), so a list filtered by the tag alone counts from a few rows; its page and combined
-- counts are served by the GIN indexes on the tags (migration 0001). Counted per row by
-- triggers, which fire on every insert path (COPY included); deferred during an import like
-- the other counts, and recounted after it by record_counts_recount, which now counts tags too.
INSERT INTO record_counts (workspace_id, record_type, bucket, shard, n)
  SELECT c.workspace_id, 'contact_tag', t.tag, 0, COUNT(*)
  FROM contacts c, LATERAL (SELECT DISTINCT jsonb_array_elements_text(c.tags) AS tag) t
  GROUP BY c.workspace_id, t.tag;
INSERT INTO record_counts (workspace_id, record_type, bucket, shard, n)
  SELECT cv.workspace_id, 'conversation_tag', t.tag, 0, COUNT(*)
  FROM conversations cv, LATERAL (SELECT DISTINCT jsonb_array_elements_text(cv.tags) AS tag) t
  GROUP BY cv.workspace_id, t.tag;

-- TG_ARGV[0] is the record type of the counts ('contact_tag', 'conversation_tag').
CREATE FUNCTION tag_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  t TEXT;
BEGIN
  IF current_setting('leadline.deferred_counts', true) = 'on' THEN
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    FOR t IN SELECT DISTINCT jsonb_array_elements_text(OLD.tags) LOOP
      PERFORM record_count_add(OLD.workspace_id, TG_ARGV[0], t, -1);
    END LOOP;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    FOR t IN SELECT DISTINCT jsonb_array_elements_text(NEW.tags) LOOP
      PERFORM record_count_add(NEW.workspace_id, TG_ARGV[0], t, 1);
    END LOOP;
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER contacts_tags_counted AFTER INSERT OR DELETE ON contacts
  FOR EACH ROW EXECUTE FUNCTION tag_counts_track('contact_tag');
CREATE TRIGGER contacts_tags_recounted AFTER UPDATE OF tags ON contacts
  FOR EACH ROW WHEN (OLD.tags IS DISTINCT FROM NEW.tags)
  EXECUTE FUNCTION tag_counts_track('contact_tag');
CREATE TRIGGER conversations_tags_counted AFTER INSERT OR DELETE ON conversations
  FOR EACH ROW EXECUTE FUNCTION tag_counts_track('conversation_tag');
CREATE TRIGGER conversations_tags_recounted AFTER UPDATE OF tags ON conversations
  FOR EACH ROW WHEN (OLD.tags IS DISTINCT FROM NEW.tags)
  EXECUTE FUNCTION tag_counts_track('conversation_tag');

CREATE OR REPLACE FUNCTION record_counts_recount(ws TEXT) RETURNS void LANGUAGE sql AS $$
  DELETE FROM record_counts WHERE workspace_id = ws;
  INSERT INTO record_counts (workspace_id, record_type, bucket, shard, n)
    SELECT ws, 'lead', pipeline_stage, 0, COUNT(*) FROM leads WHERE workspace_id = ws
    GROUP BY pipeline_stage;
  INSERT INTO record_counts (workspace_id, record_type, bucket, shard, n)
    SELECT ws, 'contact', '', 0, COUNT(*) FROM contacts WHERE workspace_id = ws HAVING COUNT(*) > 0;
  INSERT INTO record_counts (workspace_id, record_type, bucket, shard, n)
    SELECT ws, 'conversation', status, 0, COUNT(*) FROM conversations WHERE workspace_id = ws
    GROUP BY status;
  INSERT INTO record_counts (workspace_id, record_type, bucket, shard, n)
    SELECT ws, 'contact_tag', t.tag, 0, COUNT(*)
    FROM contacts c, LATERAL (SELECT DISTINCT jsonb_array_elements_text(c.tags) AS tag) t
    WHERE c.workspace_id = ws GROUP BY t.tag;
  INSERT INTO record_counts (workspace_id, record_type, bucket, shard, n)
    SELECT ws, 'conversation_tag', t.tag, 0, COUNT(*)
    FROM conversations cv, LATERAL (SELECT DISTINCT jsonb_array_elements_text(cv.tags) AS tag) t
    WHERE cv.workspace_id = ws GROUP BY t.tag;
$$;
