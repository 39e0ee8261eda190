-- A contact's conversation_count and last_conversation_at kept on its row instead of counted
-- from its conversations on every read: two aggregate subqueries per row made a page of 50
-- contacts about three times as costly as the same page without them (pgbench, 100k contacts;
-- BENCHMARKS.md, "Fifteenth round"). Only `leadline import` links a conversation to a contact
-- (the API creates no conversation and never moves one), and it raises these with the
-- contact's last_activity (store/import_store.cpp). A deleted contact takes its figures along.
ALTER TABLE contacts ADD COLUMN conversation_count BIGINT NOT NULL DEFAULT 0;
ALTER TABLE contacts ADD COLUMN last_conversation_at BIGINT;

UPDATE contacts c
SET conversation_count = f.n, last_conversation_at = f.last
FROM (SELECT workspace_id, contact_id, COUNT(*) AS n, MAX(created_at) AS last
      FROM conversations WHERE contact_id IS NOT NULL
      GROUP BY workspace_id, contact_id) f
WHERE c.workspace_id = f.workspace_id AND c.id = f.contact_id;
