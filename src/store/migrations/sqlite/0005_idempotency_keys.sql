-- The answers of POSTs sent with an Idempotency-Key (docs/api.md, "Idempotent requests"): one
-- row per API key and key, written in the transaction of the change the request made, so after
-- a crash there is the change and its answer, or neither. `fingerprint` is the SHA-256 of the
-- request (method, path, query, canonical JSON body); a row past `expires_at` is forgotten.
CREATE TABLE idempotency_keys (
  api_key_id TEXT NOT NULL REFERENCES api_keys (id),
  key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  status INTEGER NOT NULL,
  body TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (api_key_id, key)
) STRICT, WITHOUT ROWID;
-- The background purge walks it.
CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_at);
