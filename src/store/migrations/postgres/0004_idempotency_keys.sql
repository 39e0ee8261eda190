-- The PostgreSQL twin of sqlite/0005_idempotency_keys.sql: the answers of POSTs sent with an
-- Idempotency-Key, written in the transaction of the change the request made.
CREATE TABLE idempotency_keys (
  api_key_id TEXT COLLATE "C" NOT NULL REFERENCES api_keys (id),
  key TEXT COLLATE "C" NOT NULL,
  fingerprint TEXT COLLATE "C" NOT NULL,
  status INTEGER NOT NULL,
  body TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  PRIMARY KEY (api_key_id, key)
);
CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_at);
