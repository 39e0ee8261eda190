-- A conversation's message_count and last_message kept on its row instead of read from its
-- messages on every read (the PostgreSQL migration 0016 says why). Only `leadline import`
-- writes messages, each conversation's with the conversation itself, and it already knows both
-- figures. No path deletes a message but the deletion of its conversation.
ALTER TABLE conversations ADD COLUMN message_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE conversations ADD COLUMN last_message TEXT;

UPDATE conversations
SET message_count = f.n,
    last_message = (SELECT m.content FROM messages m
                    WHERE m.workspace_id = conversations.workspace_id
                      AND m.conversation_id = conversations.id
                    ORDER BY m.created_at DESC, m.id DESC LIMIT 1)
FROM (SELECT workspace_id, conversation_id, COUNT(*) AS n FROM messages
      GROUP BY workspace_id, conversation_id) AS f
WHERE conversations.workspace_id = f.workspace_id AND conversations.id = f.conversation_id;
