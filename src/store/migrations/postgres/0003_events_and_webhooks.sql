-- The PostgreSQL twin of sqlite/0004_events_and_webhooks.sql: events recorded in the
-- transaction of each change (the outbox of docs/webhooks.md), webhook endpoints, one delivery
-- per event and subscribed endpoint, and each delivery's attempts.
--
-- The feed order is (tx, seq): tx is the id of the transaction that wrote the event. Commits
-- land out of id order, so GET /events shows only events of transactions older than every
-- transaction still running (pg_snapshot_xmin): nothing can later appear before them.
CREATE TABLE events (
  seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tx BIGINT NOT NULL DEFAULT (pg_current_xact_id()::text::bigint),
  workspace_id TEXT COLLATE "C" NOT NULL,
  id TEXT COLLATE "C" NOT NULL UNIQUE,
  type TEXT COLLATE "C" NOT NULL,
  created_at BIGINT NOT NULL,
  body TEXT NOT NULL
);
-- One index serves the feed and its type filters (read from the index, without the rows); the
-- retention purge walks seq. Every index more is a B-tree more in every write's commit.
CREATE INDEX events_feed ON events (workspace_id, tx, seq, type);

CREATE TABLE webhooks (
  workspace_id TEXT COLLATE "C" NOT NULL REFERENCES workspaces (id),
  id TEXT COLLATE "C" NOT NULL,
  url TEXT NOT NULL,
  events TEXT NOT NULL,
  description TEXT NOT NULL,
  enabled BIGINT NOT NULL,
  disabled_reason TEXT,
  secret TEXT NOT NULL,
  previous_secret TEXT,
  previous_secret_until BIGINT,
  last_success_at BIGINT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (workspace_id, id)
);
CREATE INDEX webhooks_by_created ON webhooks (workspace_id, created_at, id);

-- lease_until: an instance claimed the delivery for an attempt; others leave it alone until
-- then, and a crashed instance's claim simply runs out.
CREATE TABLE webhook_deliveries (
  workspace_id TEXT COLLATE "C" NOT NULL,
  id TEXT COLLATE "C" NOT NULL,
  webhook_id TEXT COLLATE "C" NOT NULL,
  event_id TEXT COLLATE "C" NOT NULL,
  event_type TEXT NOT NULL,
  status TEXT COLLATE "C" NOT NULL,
  attempt_count BIGINT NOT NULL DEFAULT 0,
  next_attempt_at BIGINT,
  last_attempt_at BIGINT,
  last_status_code BIGINT,
  last_error TEXT,
  lease_until BIGINT,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (workspace_id, id)
);
CREATE INDEX deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX deliveries_by_created ON webhook_deliveries (workspace_id, created_at, id);
CREATE INDEX deliveries_by_event ON webhook_deliveries (event_id);
CREATE INDEX deliveries_by_webhook ON webhook_deliveries (workspace_id, webhook_id, status);

CREATE TABLE webhook_attempts (
  delivery_id TEXT COLLATE "C" NOT NULL,
  n BIGINT NOT NULL,
  attempted_at BIGINT NOT NULL,
  status_code BIGINT,
  duration_ms BIGINT NOT NULL,
  error TEXT,
  response_excerpt TEXT NOT NULL,
  PRIMARY KEY (delivery_id, n)
);
