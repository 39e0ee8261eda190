-- Events recorded in the transaction of each change (the outbox of docs/webhooks.md), webhook
-- endpoints, one delivery per event and subscribed endpoint, and each delivery's attempts.
--
-- The feed order is (tx, seq). SQLite has one writer, so seq (the rowid) already follows commit
-- order and tx is 0. Without AUTOINCREMENT, which would write sqlite_sequence in every commit,
-- a seq is reused only after the purge emptied the table, when every position a client holds
-- names an expired event and is refused anyway.
CREATE TABLE events (
  seq INTEGER PRIMARY KEY,
  tx INTEGER NOT NULL DEFAULT 0,
  workspace_id TEXT NOT NULL,
  id TEXT NOT NULL UNIQUE,
  type TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  body TEXT NOT NULL
);
-- One index serves the feed and its type filters (read from the index, without the rows); the
-- retention purge walks seq. Every index more is a B-tree more in every write's commit.
CREATE INDEX events_feed ON events (workspace_id, tx, seq, type);

CREATE TABLE webhooks (
  workspace_id TEXT NOT NULL REFERENCES workspaces (id),
  id TEXT NOT NULL,
  url TEXT NOT NULL,
  events TEXT NOT NULL,
  description TEXT NOT NULL,
  enabled INTEGER NOT NULL,
  disabled_reason TEXT,
  secret TEXT NOT NULL,
  previous_secret TEXT,
  previous_secret_until INTEGER,
  last_success_at INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (workspace_id, id)
);
CREATE INDEX webhooks_by_created ON webhooks (workspace_id, created_at, id);

-- lease_until: an instance claimed the delivery for an attempt; others leave it alone until
-- then, and a crashed instance's claim simply runs out.
CREATE TABLE webhook_deliveries (
  workspace_id TEXT NOT NULL,
  id TEXT NOT NULL,
  webhook_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  event_type TEXT NOT NULL,
  status TEXT NOT NULL,
  attempt_count INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  last_attempt_at INTEGER,
  last_status_code INTEGER,
  last_error TEXT,
  lease_until INTEGER,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (workspace_id, id)
);
CREATE INDEX deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX deliveries_by_created ON webhook_deliveries (workspace_id, created_at, id);
CREATE INDEX deliveries_by_event ON webhook_deliveries (event_id);
CREATE INDEX deliveries_by_webhook ON webhook_deliveries (workspace_id, webhook_id, status);

CREATE TABLE webhook_attempts (
  delivery_id TEXT NOT NULL,
  n INTEGER NOT NULL,
  attempted_at INTEGER NOT NULL,
  status_code INTEGER,
  duration_ms INTEGER NOT NULL,
  error TEXT,
  response_excerpt TEXT NOT NULL,
  PRIMARY KEY (delivery_id, n)
);
