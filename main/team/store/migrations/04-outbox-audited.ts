// Team store migration 4: the team outbox answers for the customers it creates. What became of a submitted
// draft is in the team's audit log, as a solo desk records it (`customer.create`, who and which customer),
// and the draft that created a customer is found again by that customer (the one-time retry pre-fills from
// it: main/team/journal/submitted-drafts.ts), and whoever recorded it created is named (`recorded_by`) so
// that the customer it did not live to write is written by another at once.
//
// Who created the customer is the reviewer who submitted the draft (`submitted_by`, stamped by the store from
// their login at submission), not the hub or desk that happened to send it: that one is named in the detail.
// The drainer writes the entry (main/team/outbox/lease.ts) in the transaction that records the outcome, so it
// is there exactly once, and links it into the audit chain as every desk does. The store decides whether an
// entry may name another login than the session's: the audit log's stamp (migration 1) overwrote every actor
// with the login; it now keeps the actor of a `customer.create` that names the submitter of a draft whose
// outcome this very transaction recorded, sent by this session (the detail says so). Every other entry is
// stamped with the login, as before.
import type { TeamMigration } from './runner.ts';

const TEAM_SCHEMA_V4_OUTBOX_AUDIT = `
CREATE OR REPLACE FUNCTION vetted.audit_log_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.action = 'customer.create' AND EXISTS (
       SELECT 1 FROM vetted.team_outbox o
        WHERE NEW.detail = 'draft ' || o.draft_id || ', sent by ' || session_user
          AND o.submitted_by = NEW.actor
          AND o.state <> 'queued'
          -- Recorded in this transaction: its row version is this transaction's.
          AND o.xmin = pg_catalog.pg_current_xact_id()::xid) THEN
    RETURN NEW;
  END IF;
  NEW.actor := session_user;
  RETURN NEW;
END $$;

-- The draft that created a customer, found again by it (the one-time retry's pre-fill on any desk).
CREATE INDEX team_outbox_by_customer ON vetted.team_outbox (customer_id) WHERE customer_id IS NOT NULL;

-- The drainer that recorded a row created: it writes the customer into the store next. Once it is gone
-- (its liveness lock, main/team/outbox/liveness.ts), another drainer writes the customer without waiting.
ALTER TABLE vetted.team_outbox ADD COLUMN recorded_by text;
`;

export const OUTBOX_AUDITED: TeamMigration = {
  version: 4,
  name: 'what became of a submitted draft is in the audit log, under its submitter; drafts by customer',
  sql: TEAM_SCHEMA_V4_OUTBOX_AUDIT,
};
