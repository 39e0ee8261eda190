-- The per-contact and per-conversation indexes also hold workspace_id, so that the statements
-- both engines share (which always say the workspace) are answered from the index alone: a
-- contact's conversation count and latest conversation, a conversation's message count and last
-- message. The record's own id comes first: it alone tells entries apart, so an index search
-- compares the shared workspace id only on the entries that match (measured with callgrind on
-- a contacts page: 16 % more instructions with workspace_id first).
DROP INDEX conversations_by_contact;
CREATE INDEX conversations_by_contact ON conversations (contact_id, workspace_id, created_at);
DROP INDEX messages_by_conversation;
CREATE INDEX messages_by_conversation ON messages (conversation_id, workspace_id, created_at, id);
