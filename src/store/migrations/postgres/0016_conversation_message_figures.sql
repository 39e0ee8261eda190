-- A conversation's message_count and last_message kept on its row instead of read from its
-- messages on every read: two subqueries per conversation made a list page cost PostgreSQL
-- about 1 ms of CPU (2.7 ms with a tag filter; BENCHMARKS.md, "Fifteenth round"). Only
-- `leadline import` writes messages, each conversation's with the conversation itself, and it
-- already knows both figures (they are in its conversation.created event). No path deletes a
-- message but the deletion of its conversation, which takes the figures along.
ALTER TABLE conversations ADD COLUMN message_count BIGINT NOT NULL DEFAULT 0;
ALTER TABLE conversations ADD COLUMN last_message TEXT;

UPDATE conversations cv
SET message_count = f.n,
    last_message = (SELECT m.content FROM messages m
                    WHERE m.workspace_id = cv.workspace_id AND m.conversation_id = cv.id
                    ORDER BY m.created_at DESC, m.id DESC LIMIT 1)
FROM (SELECT workspace_id, conversation_id, COUNT(*) AS n FROM messages
      GROUP BY workspace_id, conversation_id) f
WHERE cv.workspace_id = f.workspace_id AND cv.id = f.conversation_id;
