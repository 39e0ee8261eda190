-- The dashboard's users, their sessions and the sign-in throttle (docs/api.md, "The dashboard").
-- Secrets are never stored: setup tokens and session ids only as their SHA-256, passwords only
-- as Argon2id strings.
CREATE TABLE dashboard_users (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces (id),
  email TEXT NOT NULL,
  email_folded TEXT NOT NULL,
  name TEXT NOT NULL,
  password_hash TEXT,
  setup_token_hash TEXT UNIQUE,
  setup_expires_at INTEGER,
  created_at INTEGER NOT NULL,
  last_sign_in_at INTEGER,
  UNIQUE (workspace_id, email_folded)
) STRICT;
-- Sign-in looks an address up across workspaces.
CREATE INDEX dashboard_users_by_email ON dashboard_users (email_folded);

-- last_seen_at is moved forward at most once per touch interval, not on every request.
CREATE TABLE dashboard_sessions (
  id_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES dashboard_users (id),
  created_at INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX dashboard_sessions_by_user ON dashboard_sessions (user_id);
CREATE INDEX dashboard_sessions_by_seen ON dashboard_sessions (last_seen_at);

-- Failed sign-ins per address (case-folded), whether or not a user has it, so the throttle
-- tells nothing about which addresses exist.
CREATE TABLE dashboard_sign_in_failures (
  email_folded TEXT PRIMARY KEY,
  failures INTEGER NOT NULL,
  blocked_until INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
