-- The first schema: workspaces, the people an operator manages, API keys with usage, and the
-- records the API serves. Timestamps are INTEGER Unix ms; ids are lowercase UUIDv7 text.

-- Every record table carries workspace_id so that each query can be scoped by it.

CREATE TABLE meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT, WITHOUT ROWID;

CREATE TABLE workspaces (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;

CREATE INDEX workspaces_by_created ON workspaces (created_at, id);

-- (workspace_id, id) is unique so that records can reference a person of their own workspace
-- only, through composite foreign keys.
CREATE TABLE reps (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces (id),
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  email TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (workspace_id, id)
) STRICT;

CREATE TABLE agents (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces (id),
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  email TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (workspace_id, id)
) STRICT;

CREATE TABLE departments (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces (id),
  name TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (workspace_id, id)
) STRICT;

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces (id),
  name TEXT NOT NULL,
  prefix TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  scopes INTEGER NOT NULL,
  allowed_ips TEXT NOT NULL DEFAULT '[]',
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
) STRICT;

CREATE INDEX api_keys_by_workspace ON api_keys (workspace_id, created_at, id);

-- One row per key, UTC day (days since the epoch) and endpoint; flushes add to it.
CREATE TABLE key_usage (
  key_id TEXT NOT NULL REFERENCES api_keys (id),
  day INTEGER NOT NULL,
  endpoint TEXT NOT NULL,
  requests INTEGER NOT NULL DEFAULT 0,
  errors INTEGER NOT NULL DEFAULT 0,
  rate_limited INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (key_id, day, endpoint)
) STRICT, WITHOUT ROWID;

-- The *_folded columns hold Unicode case-folded copies: string sorts compare them bytewise
-- (code point order) and search looks for a folded needle in search_folded.
CREATE TABLE leads (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces (id),
  visitor_name TEXT NOT NULL,
  visitor_email TEXT,
  visitor_phone TEXT,
  visitor_company TEXT,
  pipeline_stage TEXT NOT NULL,
  need_summary TEXT NOT NULL DEFAULT '',
  tags TEXT NOT NULL DEFAULT '[]',
  source TEXT NOT NULL,
  expected_billing_amount REAL,
  lead_score REAL,
  assigned_rep_id TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  visitor_name_folded TEXT NOT NULL,
  search_folded TEXT NOT NULL,
  FOREIGN KEY (workspace_id, assigned_rep_id) REFERENCES reps (workspace_id, id)
) STRICT;

CREATE INDEX leads_by_created ON leads (workspace_id, created_at, id);
CREATE INDEX leads_by_updated ON leads (workspace_id, updated_at, id);
-- NULL sorts first in SQLite: descending scans of the plain index put nulls last by
-- themselves; ascending order with nulls last scans the (IS NULL) expression index.
CREATE INDEX leads_by_score ON leads (workspace_id, lead_score, id);
CREATE INDEX leads_by_score_nulls_last ON leads (workspace_id, lead_score IS NULL, lead_score, id);
CREATE INDEX leads_by_name ON leads (workspace_id, visitor_name_folded, id);
CREATE INDEX leads_by_stage ON leads (workspace_id, pipeline_stage, created_at, id);

CREATE TABLE contacts (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces (id),
  first_name TEXT NOT NULL,
  last_name TEXT,
  email TEXT,
  phone TEXT,
  company_name TEXT,
  tags TEXT NOT NULL DEFAULT '[]',
  profile_notes TEXT NOT NULL DEFAULT '',
  metadata TEXT,
  last_activity INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  first_name_folded TEXT NOT NULL,
  last_name_folded TEXT,
  email_folded TEXT,
  -- first, last, email, phone, company: what contact search matches.
  search_folded TEXT NOT NULL,
  -- first, last, email, company: what conversation search matches (no phone).
  visitor_search_folded TEXT NOT NULL
) STRICT;

-- Decides e-mail uniqueness per workspace, case-insensitively, even under concurrent creates.
CREATE UNIQUE INDEX contacts_email_unique ON contacts (workspace_id, email_folded)
  WHERE email_folded IS NOT NULL;
CREATE INDEX contacts_by_created ON contacts (workspace_id, created_at, id);
CREATE INDEX contacts_by_activity ON contacts (workspace_id, last_activity, id);
CREATE INDEX contacts_by_email ON contacts (workspace_id, email_folded, id);
CREATE INDEX contacts_by_email_nulls_last
  ON contacts (workspace_id, email_folded IS NULL, email_folded, id);
CREATE INDEX contacts_by_name ON contacts (workspace_id, first_name_folded, last_name_folded, id);
CREATE INDEX contacts_by_name_nulls_last
  ON contacts (workspace_id, first_name_folded, last_name_folded IS NULL, last_name_folded, id);

-- A deleted contact unlinks its conversations (SET NULL) and deletes nothing else.
CREATE TABLE conversations (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces (id),
  contact_id TEXT REFERENCES contacts (id) ON DELETE SET NULL,
  source TEXT NOT NULL,
  status TEXT NOT NULL,
  tags TEXT NOT NULL DEFAULT '[]',
  agent_id TEXT,
  department_id TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  FOREIGN KEY (workspace_id, agent_id) REFERENCES agents (workspace_id, id),
  FOREIGN KEY (workspace_id, department_id) REFERENCES departments (workspace_id, id)
) STRICT;

-- Serves the contact's conversation_count / last_conversation_at and the SET NULL on delete.
CREATE INDEX conversations_by_contact ON conversations (contact_id, created_at);
CREATE INDEX conversations_by_created ON conversations (workspace_id, created_at, id);
CREATE INDEX conversations_by_updated ON conversations (workspace_id, updated_at, id);

CREATE TABLE messages (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces (id),
  conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  sender_type TEXT NOT NULL,
  content TEXT NOT NULL,
  attachments TEXT,
  status TEXT NOT NULL,
  sender_name TEXT,
  created_at INTEGER NOT NULL
) STRICT;

-- Oldest-first reading, newest message, and message count of one conversation.
CREATE INDEX messages_by_conversation ON messages (conversation_id, created_at, id);
