-- The PostgreSQL twin of sqlite/0007_dashboard_users.sql: dashboard users, their sessions and
-- the sign-in throttle.
CREATE TABLE dashboard_users (
  id TEXT COLLATE "C" PRIMARY KEY,
  workspace_id TEXT COLLATE "C" NOT NULL REFERENCES workspaces (id),
  email TEXT NOT NULL,
  email_folded TEXT COLLATE "C" NOT NULL,
  name TEXT NOT NULL,
  password_hash TEXT,
  setup_token_hash TEXT COLLATE "C" UNIQUE,
  setup_expires_at BIGINT,
  created_at BIGINT NOT NULL,
  last_sign_in_at BIGINT,
  UNIQUE (workspace_id, email_folded)
);
CREATE INDEX dashboard_users_by_email ON dashboard_users (email_folded);

CREATE TABLE dashboard_sessions (
  id_hash TEXT COLLATE "C" PRIMARY KEY,
  user_id TEXT COLLATE "C" NOT NULL REFERENCES dashboard_users (id),
  created_at BIGINT NOT NULL,
  last_seen_at BIGINT NOT NULL
);
CREATE INDEX dashboard_sessions_by_user ON dashboard_sessions (user_id);
CREATE INDEX dashboard_sessions_by_seen ON dashboard_sessions (last_seen_at);

CREATE TABLE dashboard_sign_in_failures (
  email_folded TEXT COLLATE "C" PRIMARY KEY,
  failures INTEGER NOT NULL,
  blocked_until BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
