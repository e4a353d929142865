// Journal migration 2: drafts of new customers and their outbox, webhook events, the one retry per customer.
import type { Migration } from './runner.ts';

const draftsOutboxEventsRetries = `
CREATE TABLE drafts (
  id TEXT PRIMARY KEY,
  created TEXT NOT NULL,
  updated TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('draft', 'queued', 'sending', 'created', 'rejected', 'attention')),
  -- Shown in the queue and searched; the whole form, these included, is in form (encrypted).
  name TEXT NOT NULL,
  email TEXT NOT NULL,
  form TEXT NOT NULL,
  customer_id TEXT,
  field_errors TEXT NOT NULL DEFAULT '{}',
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT,
  last_error TEXT
) STRICT;
-- The "Drafts & outbox" section: drafts not yet customers, longest waiting first.
CREATE INDEX drafts_in_queue ON drafts (updated, id) WHERE state <> 'created';

-- The Idempotency-Key of a draft's create request, stored before the first request leaves.
CREATE TABLE outbox (
  draft_id TEXT PRIMARY KEY REFERENCES drafts (id),
  idempotency_key TEXT NOT NULL UNIQUE,
  key_created_at TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0
) STRICT;

-- Webhook events, deduplicated by the service's event id. customer_id has no foreign key: an event can
-- arrive before its customer is in the journal.
CREATE TABLE events (
  id TEXT PRIMARY KEY,
  topic TEXT NOT NULL,
  resource_id TEXT NOT NULL,
  customer_id TEXT,
  created TEXT NOT NULL,
  received_at TEXT NOT NULL,
  signature_verified INTEGER NOT NULL CHECK (signature_verified IN (0, 1)),
  duplicates_seen INTEGER NOT NULL DEFAULT 0,
  processed_at TEXT
) STRICT;
CREATE INDEX events_by_received ON events (received_at, id);
CREATE INDEX events_unprocessed ON events (received_at) WHERE processed_at IS NULL;
CREATE INDEX events_by_customer ON events (customer_id, received_at);

-- The one retry the service allows per customer, recorded as used.
CREATE TABLE retries (
  customer_id TEXT PRIMARY KEY REFERENCES customers (id),
  used_at TEXT NOT NULL,
  outcome TEXT
) STRICT;
`;

export const DRAFTS_OUTBOX_EVENTS_RETRIES: Migration = {
  version: 2,
  name: 'drafts, outbox, events, retries',
  sql: draftsOutboxEventsRetries,
};
