-- Counts kept by triggers, so an unfiltered (or stage/status-filtered) total_count reads a few
-- rows instead of every record of the workspace; and trigram indexes, so a search of three or
-- more characters reads only the rows that contain the needle.

-- One row per workspace, record type and bucket: the lead's pipeline_stage, the
-- conversation's status, '' for contacts.
CREATE TABLE record_counts (
  workspace_id TEXT NOT NULL,
  record_type TEXT NOT NULL,
  bucket TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (workspace_id, record_type, bucket)
) STRICT, WITHOUT ROWID;

INSERT INTO record_counts (workspace_id, record_type, bucket, n)
  SELECT workspace_id, 'lead', pipeline_stage, COUNT(*) FROM leads GROUP BY workspace_id, pipeline_stage;
INSERT INTO record_counts (workspace_id, record_type, bucket, n)
  SELECT workspace_id, 'contact', '', COUNT(*) FROM contacts GROUP BY workspace_id;
INSERT INTO record_counts (workspace_id, record_type, bucket, n)
  SELECT workspace_id, 'conversation', status, COUNT(*) FROM conversations GROUP BY workspace_id, status;

CREATE TRIGGER leads_counted AFTER INSERT ON leads BEGIN
  INSERT INTO record_counts (workspace_id, record_type, bucket, n)
    VALUES (new.workspace_id, 'lead', new.pipeline_stage, 1)
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER leads_uncounted AFTER DELETE ON leads BEGIN
  UPDATE record_counts SET n = n - 1
    WHERE workspace_id = old.workspace_id AND record_type = 'lead' AND bucket = old.pipeline_stage;
END;
CREATE TRIGGER leads_recounted AFTER UPDATE OF pipeline_stage ON leads
  WHEN old.pipeline_stage IS NOT new.pipeline_stage BEGIN
  UPDATE record_counts SET n = n - 1
    WHERE workspace_id = old.workspace_id AND record_type = 'lead' AND bucket = old.pipeline_stage;
  INSERT INTO record_counts (workspace_id, record_type, bucket, n)
    VALUES (new.workspace_id, 'lead', new.pipeline_stage, 1)
    ON CONFLICT DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER contacts_counted AFTER INSERT ON contacts BEGIN
  INSERT INTO record_counts (workspace_id, record_type, bucket, n)
    VALUES (new.workspace_id, 'contact', '', 1)
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER contacts_uncounted AFTER DELETE ON contacts BEGIN
  UPDATE record_counts SET n = n - 1
    WHERE workspace_id = old.workspace_id AND record_type = 'contact' AND bucket = '';
END;

CREATE TRIGGER conversations_counted AFTER INSERT ON conversations BEGIN
  INSERT INTO record_counts (workspace_id, record_type, bucket, n)
    VALUES (new.workspace_id, 'conversation', new.status, 1)
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER conversations_uncounted AFTER DELETE ON conversations BEGIN
  UPDATE record_counts SET n = n - 1
    WHERE workspace_id = old.workspace_id AND record_type = 'conversation' AND bucket = old.status;
END;
CREATE TRIGGER conversations_recounted AFTER UPDATE OF status ON conversations
  WHEN old.status IS NOT new.status BEGIN
  UPDATE record_counts SET n = n - 1
    WHERE workspace_id = old.workspace_id AND record_type = 'conversation' AND bucket = old.status;
  INSERT INTO record_counts (workspace_id, record_type, bucket, n)
    VALUES (new.workspace_id, 'conversation', new.status, 1)
    ON CONFLICT DO UPDATE SET n = n + 1;
END;

-- Trigram indexes over the folded search columns, as external-content FTS5 tables (the text
-- stays in the record tables). The columns are folded already, so the tokenizer is told not to
-- fold again. A phrase of the needle's trigrams matches exactly the rows whose column contains
-- the needle, which is what instr() answers.
CREATE VIRTUAL TABLE leads_search USING fts5(
  search_folded, content = 'leads', content_rowid = 'rowid',
  tokenize = 'trigram case_sensitive 1');
CREATE VIRTUAL TABLE contacts_search USING fts5(
  search_folded, content = 'contacts', content_rowid = 'rowid',
  tokenize = 'trigram case_sensitive 1');
CREATE VIRTUAL TABLE contacts_visitor_search USING fts5(
  visitor_search_folded, content = 'contacts', content_rowid = 'rowid',
  tokenize = 'trigram case_sensitive 1');
INSERT INTO leads_search (leads_search) VALUES ('rebuild');
INSERT INTO contacts_search (contacts_search) VALUES ('rebuild');
INSERT INTO contacts_visitor_search (contacts_visitor_search) VALUES ('rebuild');

CREATE TRIGGER leads_search_insert AFTER INSERT ON leads BEGIN
  INSERT INTO leads_search (rowid, search_folded) VALUES (new.rowid, new.search_folded);
END;
CREATE TRIGGER leads_search_delete AFTER DELETE ON leads BEGIN
  INSERT INTO leads_search (leads_search, rowid, search_folded)
    VALUES ('delete', old.rowid, old.search_folded);
END;
CREATE TRIGGER leads_search_update AFTER UPDATE OF search_folded ON leads
  WHEN old.search_folded IS NOT new.search_folded BEGIN
  INSERT INTO leads_search (leads_search, rowid, search_folded)
    VALUES ('delete', old.rowid, old.search_folded);
  INSERT INTO leads_search (rowid, search_folded) VALUES (new.rowid, new.search_folded);
END;

CREATE TRIGGER contacts_search_insert AFTER INSERT ON contacts BEGIN
  INSERT INTO contacts_search (rowid, search_folded) VALUES (new.rowid, new.search_folded);
  INSERT INTO contacts_visitor_search (rowid, visitor_search_folded)
    VALUES (new.rowid, new.visitor_search_folded);
END;
CREATE TRIGGER contacts_search_delete AFTER DELETE ON contacts BEGIN
  INSERT INTO contacts_search (contacts_search, rowid, search_folded)
    VALUES ('delete', old.rowid, old.search_folded);
  INSERT INTO contacts_visitor_search (contacts_visitor_search, rowid, visitor_search_folded)
    VALUES ('delete', old.rowid, old.visitor_search_folded);
END;
CREATE TRIGGER contacts_search_update AFTER UPDATE OF search_folded ON contacts
  WHEN old.search_folded IS NOT new.search_folded BEGIN
  INSERT INTO contacts_search (contacts_search, rowid, search_folded)
    VALUES ('delete', old.rowid, old.search_folded);
  INSERT INTO contacts_search (rowid, search_folded) VALUES (new.rowid, new.search_folded);
END;
CREATE TRIGGER contacts_visitor_search_update AFTER UPDATE OF visitor_search_folded ON contacts
  WHEN old.visitor_search_folded IS NOT new.visitor_search_folded BEGIN
  INSERT INTO contacts_visitor_search (contacts_visitor_search, rowid, visitor_search_folded)
    VALUES ('delete', old.rowid, old.visitor_search_folded);
  INSERT INTO contacts_visitor_search (rowid, visitor_search_folded)
    VALUES (new.rowid, new.visitor_search_folded);
END;
