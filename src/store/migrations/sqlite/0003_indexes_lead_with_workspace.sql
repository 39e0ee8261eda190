-- The per-contact and per-conversation indexes lead with workspace_id, as every other index
-- does and as PostgreSQL's do, so that the statements both engines share (which always say the
-- workspace) are answered from the index alone: a contact's conversation count and latest
-- conversation, a conversation's message count and last message.
DROP INDEX conversations_by_contact;
CREATE INDEX conversations_by_contact ON conversations (workspace_id, contact_id, created_at);
DROP INDEX messages_by_conversation;
CREATE INDEX messages_by_conversation ON messages (workspace_id, conversation_id, created_at, id);
