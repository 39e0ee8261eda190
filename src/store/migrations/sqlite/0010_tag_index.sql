-- Tags indexed: one row per (workspace, tag, record), kept by triggers from the records' JSON
-- arrays (which stay as they are: the API reads them), so a tag-filtered list reads or checks
-- the tag's rows by index instead of parsing every record's array; and each tag's count in
-- record_counts (record_type 'contact_tag' / 'conversation_tag', bucket = the tag), so a list
-- filtered by the tag alone counts from one row. Triggers fire on every insert path, imports
-- included.
CREATE TABLE contact_tags (
  workspace_id TEXT NOT NULL,
  tag TEXT NOT NULL,
  contact_id TEXT NOT NULL,
  PRIMARY KEY (workspace_id, tag, contact_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE conversation_tags (
  workspace_id TEXT NOT NULL,
  tag TEXT NOT NULL,
  conversation_id TEXT NOT NULL,
  PRIMARY KEY (workspace_id, tag, conversation_id)
) STRICT, WITHOUT ROWID;

INSERT INTO contact_tags (workspace_id, tag, contact_id)
  SELECT DISTINCT c.workspace_id, j.value, c.id FROM contacts c, json_each(c.tags) j;
INSERT INTO conversation_tags (workspace_id, tag, conversation_id)
  SELECT DISTINCT cv.workspace_id, j.value, cv.id FROM conversations cv, json_each(cv.tags) j;
INSERT INTO record_counts (workspace_id, record_type, bucket, n)
  SELECT workspace_id, 'contact_tag', tag, COUNT(*) FROM contact_tags GROUP BY workspace_id, tag;
INSERT INTO record_counts (workspace_id, record_type, bucket, n)
  SELECT workspace_id, 'conversation_tag', tag, COUNT(*) FROM conversation_tags
  GROUP BY workspace_id, tag;

-- A record's tag rows follow its array. "WHERE true": an upsert's SELECT must not end in a
-- join's ON clause, which SQLite's parser would take the ON CONFLICT for.
CREATE TRIGGER contacts_tagged AFTER INSERT ON contacts BEGIN
  INSERT INTO contact_tags (workspace_id, tag, contact_id)
    SELECT DISTINCT new.workspace_id, value, new.id FROM json_each(new.tags) WHERE true
    ON CONFLICT DO NOTHING;
END;
CREATE TRIGGER contacts_untagged AFTER DELETE ON contacts BEGIN
  DELETE FROM contact_tags WHERE workspace_id = old.workspace_id
    AND tag IN (SELECT value FROM json_each(old.tags)) AND contact_id = old.id;
END;
CREATE TRIGGER contacts_retagged AFTER UPDATE OF tags ON contacts
  WHEN old.tags IS NOT new.tags BEGIN
  DELETE FROM contact_tags WHERE workspace_id = old.workspace_id
    AND tag IN (SELECT value FROM json_each(old.tags)) AND contact_id = old.id;
  INSERT INTO contact_tags (workspace_id, tag, contact_id)
    SELECT DISTINCT new.workspace_id, value, new.id FROM json_each(new.tags) WHERE true
    ON CONFLICT DO NOTHING;
END;

CREATE TRIGGER conversations_tagged AFTER INSERT ON conversations BEGIN
  INSERT INTO conversation_tags (workspace_id, tag, conversation_id)
    SELECT DISTINCT new.workspace_id, value, new.id FROM json_each(new.tags) WHERE true
    ON CONFLICT DO NOTHING;
END;
CREATE TRIGGER conversations_untagged AFTER DELETE ON conversations BEGIN
  DELETE FROM conversation_tags WHERE workspace_id = old.workspace_id
    AND tag IN (SELECT value FROM json_each(old.tags)) AND conversation_id = old.id;
END;
CREATE TRIGGER conversations_retagged AFTER UPDATE OF tags ON conversations
  WHEN old.tags IS NOT new.tags BEGIN
  DELETE FROM conversation_tags WHERE workspace_id = old.workspace_id
    AND tag IN (SELECT value FROM json_each(old.tags)) AND conversation_id = old.id;
  INSERT INTO conversation_tags (workspace_id, tag, conversation_id)
    SELECT DISTINCT new.workspace_id, value, new.id FROM json_each(new.tags) WHERE true
    ON CONFLICT DO NOTHING;
END;

-- Each tag row counts once for its tag.
CREATE TRIGGER contact_tags_counted AFTER INSERT ON contact_tags BEGIN
  INSERT INTO record_counts (workspace_id, record_type, bucket, n)
    VALUES (new.workspace_id, 'contact_tag', new.tag, 1)
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER contact_tags_uncounted AFTER DELETE ON contact_tags BEGIN
  UPDATE record_counts SET n = n - 1
    WHERE workspace_id = old.workspace_id AND record_type = 'contact_tag' AND bucket = old.tag;
END;
CREATE TRIGGER conversation_tags_counted AFTER INSERT ON conversation_tags BEGIN
  INSERT INTO record_counts (workspace_id, record_type, bucket, n)
    VALUES (new.workspace_id, 'conversation_tag', new.tag, 1)
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER conversation_tags_uncounted AFTER DELETE ON conversation_tags BEGIN
  UPDATE record_counts SET n = n - 1
    WHERE workspace_id = old.workspace_id AND record_type = 'conversation_tag' AND bucket = old.tag;
END;
