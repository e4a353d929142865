// Team store migration 1: its tables. Everything lives in schema `vetted`. Times are timestamptz.
// Personal data columns (`profile`, `personal`, `reported`, notes' `body`, the outbox's `form`) hold
// `encryptField` tokens made on the desks with the team data key: PostgreSQL never sees them in plaintext,
// and the key is never in the database (`team_meta.key_check` only tells a right key from a wrong one).
// Rows desks copy into their local journal (customers, status_history, notes, retries) carry `seq`, drawn
// from `change_seq` under CHANGE_LOCK (../sql.ts), so "every change after N" is a plain index range.
import type { TeamMigration } from './runner.ts';

const TEAM_SCHEMA_V1 = `
CREATE SCHEMA vetted;
CREATE SEQUENCE vetted.change_seq;

CREATE TABLE vetted.team_meta (
  team_id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- HMAC-SHA256(team data key, 'vetted:team-key-check'), base64url: a desk checks the key it was given.
  key_check text NOT NULL,
  -- The role every reviewer's login is a member of (grants go to it).
  reviewer_role text NOT NULL
);

CREATE TABLE vetted.customers (
  id text PRIMARY KEY,
  seq bigint NOT NULL,
  status text NOT NULL,
  section text NOT NULL,
  status_since timestamptz NOT NULL,
  created timestamptz NOT NULL,
  last_refreshed timestamptz NOT NULL,
  changed_at timestamptz NOT NULL,
  gone_at timestamptz,
  pending_documents integer NOT NULL DEFAULT 0,
  -- Sealed JSON: { url, name, email, type, links, note }.
  profile text NOT NULL,
  -- Sealed JSON PersonalData (address, date of birth, SSN last four), when known.
  personal text,
  -- Sealed JSON of the fields the service reported beyond the interface document's.
  reported text
);
CREATE INDEX customers_by_seq ON vetted.customers (seq);
CREATE INDEX customers_to_reconcile ON vetted.customers (status) WHERE gone_at IS NULL;

CREATE TABLE vetted.status_history (
  seq bigint PRIMARY KEY,
  customer_id text NOT NULL REFERENCES vetted.customers (id),
  status text NOT NULL,
  at timestamptz NOT NULL,
  source text NOT NULL CHECK (source IN ('created', 'poll', 'event')),
  event_id text
);
CREATE INDEX status_history_by_customer ON vetted.status_history (customer_id, seq);

CREATE TABLE vetted.retries (
  customer_id text PRIMARY KEY REFERENCES vetted.customers (id),
  seq bigint NOT NULL,
  used_at timestamptz NOT NULL,
  outcome text,
  actor text NOT NULL DEFAULT session_user
);
CREATE INDEX retries_by_seq ON vetted.retries (seq);

CREATE TABLE vetted.notes (
  seq bigint PRIMARY KEY,
  customer_id text NOT NULL,
  at timestamptz NOT NULL,
  -- The database login that wrote it, never what the client claims.
  author text NOT NULL DEFAULT session_user,
  body text NOT NULL
);
CREATE INDEX notes_by_customer ON vetted.notes (customer_id, seq);

-- Webhook events, unique by the service's id whichever hub or desk records them.
CREATE TABLE vetted.events (
  id text PRIMARY KEY,
  seq bigserial NOT NULL,
  topic text NOT NULL,
  resource_id text NOT NULL,
  customer_id text,
  created timestamptz NOT NULL,
  received_at timestamptz NOT NULL,
  signature_verified boolean NOT NULL,
  duplicates_seen integer NOT NULL DEFAULT 0,
  processed_at timestamptz
);
CREATE INDEX events_by_received ON vetted.events (received_at, id);
CREATE INDEX events_unprocessed ON vetted.events (received_at) WHERE processed_at IS NULL;
CREATE INDEX events_by_customer ON vetted.events (customer_id, received_at);
CREATE INDEX events_by_topic ON vetted.events (topic, received_at);

CREATE TABLE vetted.webhook_rejections (
  seq bigserial PRIMARY KEY,
  at timestamptz NOT NULL,
  remote_address text NOT NULL,
  forwarded_for text,
  status integer NOT NULL,
  reason text NOT NULL
);

-- Every reviewer action, append-only (grants and the triggers below). Never personal data.
CREATE TABLE vetted.audit_log (
  seq bigserial PRIMARY KEY,
  at timestamptz NOT NULL,
  -- Stamped by the trigger from the session's login: a client cannot claim to be someone else.
  actor text NOT NULL DEFAULT session_user,
  action text NOT NULL,
  customer_id text,
  outcome text NOT NULL,
  detail text
);
CREATE INDEX audit_log_by_customer ON vetted.audit_log (customer_id, seq);
CREATE INDEX audit_log_by_action ON vetted.audit_log (action, seq);
CREATE INDEX audit_log_by_actor ON vetted.audit_log (actor, seq);

CREATE FUNCTION vetted.audit_log_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.actor := session_user;
  RETURN NEW;
END $$;
CREATE TRIGGER audit_log_stamp BEFORE INSERT ON vetted.audit_log
  FOR EACH ROW EXECUTE FUNCTION vetted.audit_log_stamp();

CREATE FUNCTION vetted.audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'The audit log is append-only' USING ERRCODE = 'insufficient_privilege';
END $$;
CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON vetted.audit_log
  FOR EACH ROW EXECUTE FUNCTION vetted.audit_log_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON vetted.audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION vetted.audit_log_append_only();

-- The team outbox: drafts submitted from any desk, each with the Idempotency-Key its create request
-- carries. Whoever drains it (hub or desk) takes rows with FOR UPDATE SKIP LOCKED and a lease; a row whose
-- lease ran out (its holder died) is taken over and sent again with the same key.
CREATE TABLE vetted.team_outbox (
  idempotency_key uuid PRIMARY KEY,
  draft_id text NOT NULL UNIQUE,
  submitted_by text NOT NULL DEFAULT session_user,
  submitted_at timestamptz NOT NULL DEFAULT now(),
  -- Sealed JSON CustomerInput (the whole form).
  form text NOT NULL,
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'created', 'rejected', 'attention')),
  lease_holder text,
  lease_until timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  -- A request with this key may have been processed without the answer reaching us: replay it.
  maybe_created boolean NOT NULL DEFAULT false,
  customer_id text,
  last_error text,
  field_errors jsonb NOT NULL DEFAULT '{}',
  next_attempt_at timestamptz,
  finished_at timestamptz
);
CREATE INDEX team_outbox_due ON vetted.team_outbox (next_attempt_at NULLS FIRST, submitted_at)
  WHERE state = 'queued';

-- team-records: a released retry (the service refused its fields without acting on them) stays as a
-- tombstone with a new change number, so that desks' replicas learn the retry is there again; a DELETE
-- would leave them nothing to read. Repositories read only rows that are not released.
ALTER TABLE vetted.retries ADD COLUMN released boolean NOT NULL DEFAULT false;

-- ── team-outbox (main/team/outbox/) ──────────────────────────────────────────────────────────────────
-- When the desk made the key (it may have been used before the draft reached the team outbox): past 23 h
-- the service may have forgotten it, and a replay could create a second customer.
ALTER TABLE vetted.team_outbox ADD COLUMN key_created_at timestamptz NOT NULL DEFAULT now();
-- The existing customer a Duplicate e-mail rejection named (a person may link the draft to it).
ALTER TABLE vetted.team_outbox ADD COLUMN duplicate_of text;
-- Rows a drainer holds, by holder (who holds what after a crash).
CREATE INDEX team_outbox_leases ON vetted.team_outbox (lease_holder) WHERE lease_holder IS NOT NULL;
-- ── end team-outbox ──────────────────────────────────────────────────────────────────────────────────
`;

export const TEAM_TABLES: TeamMigration = {
  version: 1,
  name: 'customers, history, notes, retries, events, audit, team outbox',
  sql: TEAM_SCHEMA_V1,
};
