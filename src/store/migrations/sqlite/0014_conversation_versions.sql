-- A version per conversation, raised in the same transaction by every write that changes what
-- getting the conversation shows, whoever writes it (the API, an import, another process on the
-- same file): its own row, its messages, and the linked contact's and agent's shown fields. A
-- get reads it in the snapshot it answers from, and a rendering kept at that version is the
-- answer (ConversationStore::render, docs/design.md "Rendered conversations"). No row: 0; rows
-- are never deleted, so a version never comes back with another conversation behind it.
CREATE TABLE conversation_versions (
  workspace_id TEXT NOT NULL,
  conversation_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  PRIMARY KEY (workspace_id, conversation_id)
) STRICT, WITHOUT ROWID;

CREATE TRIGGER conversations_versioned_insert AFTER INSERT ON conversations BEGIN
  INSERT INTO conversation_versions VALUES (new.workspace_id, new.id, 1)
    ON CONFLICT DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER conversations_versioned_delete AFTER DELETE ON conversations BEGIN
  INSERT INTO conversation_versions VALUES (old.workspace_id, old.id, 1)
    ON CONFLICT DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER conversations_versioned_update AFTER UPDATE ON conversations BEGIN
  INSERT INTO conversation_versions VALUES (old.workspace_id, old.id, 1)
    ON CONFLICT DO UPDATE SET version = version + 1;
  INSERT INTO conversation_versions
    SELECT new.workspace_id, new.id, 1
    WHERE new.workspace_id IS NOT old.workspace_id OR new.id IS NOT old.id
    ON CONFLICT DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER messages_versioned_insert AFTER INSERT ON messages BEGIN
  INSERT INTO conversation_versions VALUES (new.workspace_id, new.conversation_id, 1)
    ON CONFLICT DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER messages_versioned_delete AFTER DELETE ON messages BEGIN
  INSERT INTO conversation_versions VALUES (old.workspace_id, old.conversation_id, 1)
    ON CONFLICT DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER messages_versioned_update AFTER UPDATE ON messages BEGIN
  INSERT INTO conversation_versions VALUES (old.workspace_id, old.conversation_id, 1)
    ON CONFLICT DO UPDATE SET version = version + 1;
  INSERT INTO conversation_versions
    SELECT new.workspace_id, new.conversation_id, 1
    WHERE new.workspace_id IS NOT old.workspace_id OR new.conversation_id IS NOT old.conversation_id
    ON CONFLICT DO UPDATE SET version = version + 1;
END;

-- The contact's conversations, found through conversations_by_contact. An insert too: a
-- conversation can name a contact id before the contact exists only with foreign keys off, but
-- the check is one index probe. The deletion's SET NULL raises the versions again through the
-- conversations' own trigger; this one runs first, while they still name the contact.
CREATE TRIGGER contacts_versioned_insert AFTER INSERT ON contacts BEGIN
  INSERT INTO conversation_versions
    SELECT workspace_id, id, 1 FROM conversations WHERE contact_id = new.id
    ON CONFLICT DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER contacts_versioned_delete BEFORE DELETE ON contacts BEGIN
  INSERT INTO conversation_versions
    SELECT workspace_id, id, 1 FROM conversations WHERE contact_id = old.id
    ON CONFLICT DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER contacts_versioned_update
  AFTER UPDATE OF id, workspace_id, first_name, last_name, email, phone, company_name ON contacts
BEGIN
  INSERT INTO conversation_versions
    SELECT workspace_id, id, 1 FROM conversations WHERE contact_id IN (old.id, new.id)
    ON CONFLICT DO UPDATE SET version = version + 1;
END;

-- leadline creates agents and never changes or deletes one, and a conversation cannot name an
-- agent before it exists (foreign key): these run only for another program's writes, and then
-- read the workspace's conversations, as no index serves agent_id.
CREATE TRIGGER agents_versioned_delete BEFORE DELETE ON agents BEGIN
  INSERT INTO conversation_versions
    SELECT workspace_id, id, 1 FROM conversations
    WHERE workspace_id = old.workspace_id AND agent_id = old.id
    ON CONFLICT DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER agents_versioned_update
  AFTER UPDATE OF id, workspace_id, first_name, last_name, email ON agents
BEGIN
  INSERT INTO conversation_versions
    SELECT workspace_id, id, 1 FROM conversations
    WHERE (workspace_id = old.workspace_id AND agent_id = old.id)
       OR (workspace_id = new.workspace_id AND agent_id = new.id)
    ON CONFLICT DO UPDATE SET version = version + 1;
END;
