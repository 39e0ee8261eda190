-- Usage per key, UTC hour and endpoint instead of per day: the dashboard charts the last 48
-- hours and 30 days, and `keys usage` sums the same rows, so the two always agree.
--
-- `hour` is hours since the Unix epoch; errors count responses >= 400, 429s included, and
-- rate_limited the 429s. `last_at` is the latest request counted into the row (Unix ms), so a
-- key's last use is read from its latest hour. `workspace_id` is the key's, copied by the
-- flush's upsert (no foreign key: it comes from api_keys, which has one), so a workspace's usage
-- is one range of key_usage_hours_by_workspace.
CREATE TABLE key_usage_hours (
  key_id TEXT NOT NULL REFERENCES api_keys (id),
  hour INTEGER NOT NULL,
  endpoint TEXT NOT NULL,
  workspace_id TEXT NOT NULL,
  requests INTEGER NOT NULL DEFAULT 0,
  errors INTEGER NOT NULL DEFAULT 0,
  rate_limited INTEGER NOT NULL DEFAULT 0,
  last_at INTEGER NOT NULL,
  PRIMARY KEY (key_id, hour, endpoint)
) STRICT, WITHOUT ROWID;
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
