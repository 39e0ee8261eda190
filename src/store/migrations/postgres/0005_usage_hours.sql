-- The PostgreSQL twin of sqlite/0006_usage_hours.sql: usage per key, UTC hour (hours since the
-- Unix epoch) and endpoint instead of per day, with the latest request counted into each row
-- (last_at, Unix ms) and the key's workspace, so a workspace's usage is one index range (and one
-- shard when distributed by workspace_id).
CREATE TABLE key_usage_hours (
  key_id TEXT COLLATE "C" NOT NULL REFERENCES api_keys (id),
  hour BIGINT NOT NULL,
  endpoint TEXT COLLATE "C" NOT NULL,
  workspace_id TEXT COLLATE "C" NOT NULL,
  requests BIGINT NOT NULL DEFAULT 0,
  errors BIGINT NOT NULL DEFAULT 0,
  rate_limited BIGINT NOT NULL DEFAULT 0,
  last_at BIGINT NOT NULL,
  PRIMARY KEY (key_id, hour, endpoint)
);
CREATE INDEX key_usage_hours_by_workspace ON key_usage_hours (workspace_id, hour);
-- The retention purge walks it from the oldest hour.
CREATE INDEX key_usage_hours_by_hour ON key_usage_hours (hour);

-- A day's counts become its first hour's, which keeps them in the same day, week and month.
INSERT INTO key_usage_hours (key_id, hour, endpoint, workspace_id, requests, errors,
                             rate_limited, last_at)
SELECT u.key_id, u.day * 24, u.endpoint, k.workspace_id, u.requests, u.errors, u.rate_limited,
       u.day * 86400000
FROM key_usage u JOIN api_keys k ON k.id = u.key_id;
DROP TABLE key_usage;
