-- A contact's conversation_count and last_conversation_at kept on its row instead of counted
-- from its conversations on every read (the PostgreSQL migration 0015 says why). Only
-- `leadline import` links a conversation to a contact, and it raises these with the contact's
-- last_activity (store/import_store.cpp). A deleted contact takes its figures along.
ALTER TABLE contacts ADD COLUMN conversation_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE contacts ADD COLUMN last_conversation_at INTEGER;

UPDATE contacts
SET conversation_count = f.n, last_conversation_at = f.last
FROM (SELECT workspace_id, contact_id, COUNT(*) AS n, MAX(created_at) AS last
      FROM conversations WHERE contact_id IS NOT NULL
      GROUP BY workspace_id, contact_id) AS f
WHERE contacts.workspace_id = f.workspace_id AND contacts.id = f.contact_id;
