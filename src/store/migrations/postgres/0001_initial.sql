-- The first schema, the PostgreSQL twin of sqlite/0001_initial.sql: workspaces, the people an
-- operator manages, API keys with usage, and the records the API serves. Timestamps are
-- BIGINT Unix ms; ids are lowercase UUIDv7 text.
--
-- Ready for a distributed PostgreSQL-compatible engine: every record table's primary key is
-- (workspace_id, id), every unique and secondary index leads with workspace_id, foreign keys
-- between records are composite (workspace_id, ...), and every record query filters by
-- workspace_id, so one workspace's rows can live together on one shard. Only workspaces, API
-- keys (looked up by hash before the workspace is known) and their usage are keyed globally.
--
-- Ids and the *_folded columns are COLLATE "C": strings compare bytewise, i.e. in code point
-- order, exactly as SQLite compares them, whatever the database's default collation is.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE meta (
  key TEXT COLLATE "C" PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE workspaces (
  id TEXT COLLATE "C" PRIMARY KEY,
  name TEXT NOT NULL,
  created_at BIGINT NOT NULL
);

CREATE INDEX workspaces_by_created ON workspaces (created_at, id);

CREATE TABLE reps (
  workspace_id TEXT COLLATE "C" NOT NULL REFERENCES workspaces (id),
  id TEXT COLLATE "C" NOT NULL,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  email TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (workspace_id, id)
);

CREATE TABLE agents (
  workspace_id TEXT COLLATE "C" NOT NULL REFERENCES workspaces (id),
  id TEXT COLLATE "C" NOT NULL,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  email TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (workspace_id, id)
);

CREATE TABLE departments (
  workspace_id TEXT COLLATE "C" NOT NULL REFERENCES workspaces (id),
  id TEXT COLLATE "C" NOT NULL,
  name TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (workspace_id, id)
);

CREATE TABLE api_keys (
  id TEXT COLLATE "C" PRIMARY KEY,
  workspace_id TEXT COLLATE "C" NOT NULL REFERENCES workspaces (id),
  name TEXT NOT NULL,
  prefix TEXT NOT NULL,
  key_hash TEXT COLLATE "C" NOT NULL UNIQUE,
  scopes INTEGER NOT NULL,
  allowed_ips JSONB NOT NULL DEFAULT '[]',
  created_at BIGINT NOT NULL,
  revoked_at BIGINT
);

CREATE INDEX api_keys_by_workspace ON api_keys (workspace_id, created_at, id);

-- One row per key, UTC day (days since the epoch) and endpoint; flushes add to it, so the
-- counters of several instances add up.
CREATE TABLE key_usage (
  key_id TEXT COLLATE "C" NOT NULL REFERENCES api_keys (id),
  day BIGINT NOT NULL,
  endpoint TEXT COLLATE "C" NOT NULL,
  requests BIGINT NOT NULL DEFAULT 0,
  errors BIGINT NOT NULL DEFAULT 0,
  rate_limited BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (key_id, day, endpoint)
);

-- The *_folded columns hold Unicode case-folded copies (computed by leadline, not SQL): string
-- sorts compare them, search looks for a folded needle in search_folded through a trigram
-- index.
CREATE TABLE leads (
  workspace_id TEXT COLLATE "C" NOT NULL REFERENCES workspaces (id),
  id TEXT COLLATE "C" NOT NULL,
  visitor_name TEXT NOT NULL,
  visitor_email TEXT,
  visitor_phone TEXT,
  visitor_company TEXT,
  pipeline_stage TEXT COLLATE "C" NOT NULL,
  need_summary TEXT NOT NULL DEFAULT '',
  tags JSONB NOT NULL DEFAULT '[]',
  source TEXT NOT NULL,
  expected_billing_amount DOUBLE PRECISION,
  lead_score DOUBLE PRECISION,
  assigned_rep_id TEXT COLLATE "C",
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  visitor_name_folded TEXT COLLATE "C" NOT NULL,
  search_folded TEXT COLLATE "C" NOT NULL,
  PRIMARY KEY (workspace_id, id),
  FOREIGN KEY (workspace_id, assigned_rep_id) REFERENCES reps (workspace_id, id)
);

-- One B-tree per sort, scanned forwards or backwards. NULLs sort last in both directions, so
-- the nullable score has one index per direction.
CREATE INDEX leads_by_created ON leads (workspace_id, created_at, id);
CREATE INDEX leads_by_updated ON leads (workspace_id, updated_at, id);
CREATE INDEX leads_by_score_asc ON leads (workspace_id, lead_score ASC NULLS LAST, id ASC);
CREATE INDEX leads_by_score_desc ON leads (workspace_id, lead_score DESC NULLS LAST, id DESC);
CREATE INDEX leads_by_name ON leads (workspace_id, visitor_name_folded, id);
CREATE INDEX leads_by_stage ON leads (workspace_id, pipeline_stage, created_at, id);
CREATE INDEX leads_search ON leads USING gin (search_folded gin_trgm_ops);

CREATE TABLE contacts (
  workspace_id TEXT COLLATE "C" NOT NULL REFERENCES workspaces (id),
  id TEXT COLLATE "C" NOT NULL,
  first_name TEXT NOT NULL,
  last_name TEXT,
  email TEXT,
  phone TEXT,
  company_name TEXT,
  tags JSONB NOT NULL DEFAULT '[]',
  profile_notes TEXT NOT NULL DEFAULT '',
  metadata TEXT,
  last_activity BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  first_name_folded TEXT COLLATE "C" NOT NULL,
  last_name_folded TEXT COLLATE "C",
  email_folded TEXT COLLATE "C",
  -- first, last, email, phone, company: what contact search matches.
  search_folded TEXT COLLATE "C" NOT NULL,
  -- first, last, email, company: what conversation search matches (no phone).
  visitor_search_folded TEXT COLLATE "C" NOT NULL,
  PRIMARY KEY (workspace_id, id)
);

-- Decides e-mail uniqueness per workspace, case-insensitively, even under concurrent creates.
CREATE UNIQUE INDEX contacts_email_unique ON contacts (workspace_id, email_folded)
  WHERE email_folded IS NOT NULL;
CREATE INDEX contacts_by_created ON contacts (workspace_id, created_at, id);
CREATE INDEX contacts_by_activity ON contacts (workspace_id, last_activity, id);
CREATE INDEX contacts_by_email_asc
  ON contacts (workspace_id, email_folded ASC NULLS LAST, id ASC);
CREATE INDEX contacts_by_email_desc
  ON contacts (workspace_id, email_folded DESC NULLS LAST, id DESC);
CREATE INDEX contacts_by_name_asc
  ON contacts (workspace_id, first_name_folded ASC, last_name_folded ASC NULLS LAST, id ASC);
CREATE INDEX contacts_by_name_desc
  ON contacts (workspace_id, first_name_folded DESC, last_name_folded DESC NULLS LAST, id DESC);
CREATE INDEX contacts_search ON contacts USING gin (search_folded gin_trgm_ops);
CREATE INDEX contacts_visitor_search ON contacts USING gin (visitor_search_folded gin_trgm_ops);
CREATE INDEX contacts_tags ON contacts USING gin (tags jsonb_path_ops);

-- A deleted contact unlinks its conversations (SET NULL on contact_id only) and deletes
-- nothing else.
CREATE TABLE conversations (
  workspace_id TEXT COLLATE "C" NOT NULL REFERENCES workspaces (id),
  id TEXT COLLATE "C" NOT NULL,
  contact_id TEXT COLLATE "C",
  source TEXT NOT NULL,
  status TEXT COLLATE "C" NOT NULL,
  tags JSONB NOT NULL DEFAULT '[]',
  agent_id TEXT COLLATE "C",
  department_id TEXT COLLATE "C",
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (workspace_id, id),
  FOREIGN KEY (workspace_id, contact_id) REFERENCES contacts (workspace_id, id)
    ON DELETE SET NULL (contact_id),
  FOREIGN KEY (workspace_id, agent_id) REFERENCES agents (workspace_id, id),
  FOREIGN KEY (workspace_id, department_id) REFERENCES departments (workspace_id, id)
);

-- Serves the contact's conversation_count / last_conversation_at and the SET NULL on delete.
CREATE INDEX conversations_by_contact ON conversations (workspace_id, contact_id, created_at);
CREATE INDEX conversations_by_created ON conversations (workspace_id, created_at, id);
CREATE INDEX conversations_by_updated ON conversations (workspace_id, updated_at, id);
CREATE INDEX conversations_tags ON conversations USING gin (tags jsonb_path_ops);

CREATE TABLE messages (
  workspace_id TEXT COLLATE "C" NOT NULL REFERENCES workspaces (id),
  id TEXT COLLATE "C" NOT NULL,
  conversation_id TEXT COLLATE "C" NOT NULL,
  sender_type TEXT NOT NULL,
  content TEXT NOT NULL,
  attachments TEXT,
  status TEXT NOT NULL,
  sender_name TEXT,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (workspace_id, id),
  FOREIGN KEY (workspace_id, conversation_id) REFERENCES conversations (workspace_id, id)
    ON DELETE CASCADE
);

-- Oldest-first reading, newest message, and message count of one conversation.
CREATE INDEX messages_by_conversation ON messages (workspace_id, conversation_id, created_at, id);
