// Team store migration 4: the team outbox answers for the customers it creates. What became of a submitted
// draft is in the team's audit log, as a solo desk records it (`customer.create`, who and which customer),
// and the draft that created a customer is found again by that customer (the one-time retry pre-fills from
// it: main/team/journal/submitted-drafts.ts), and whoever recorded it created is named (`recorded_by`) so
// that the customer it did not live to write is written by another at once. The store writes the audit entry
// itself, in the transaction that records the outcome: exactly once per outcome, whichever drainer sent the
// draft, and no desk can leave it out or word it otherwise.
//
// Who created the customer is the reviewer who submitted the draft (`submitted_by`, stamped by the store from
// their login at submission), not the hub or desk that happened to send it: that one is named in the detail.
// The audit log's stamp (migration 1) overwrote every actor with the session's login; it now keeps the actor
// that one of the store's own SECURITY DEFINER functions names (they run as the schema's owner, the
// administrator, which no reviewer can become). Every other insert is stamped with the login, as before. A
// definer function that writes the audit log must therefore name the actor from what the store stamped, or
// leave it to the column's default (the login).
import type { TeamMigration } from './runner.ts';

const TEAM_SCHEMA_V4_OUTBOX_AUDIT = `
CREATE OR REPLACE FUNCTION vetted.audit_log_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_user = session_user
     OR (SELECT oid FROM pg_catalog.pg_roles WHERE rolname = current_user)
        IS DISTINCT FROM (SELECT nspowner FROM pg_catalog.pg_namespace WHERE nspname = 'vetted') THEN
    NEW.actor := session_user;
  END IF;
  RETURN NEW;
END $$;

-- A team outbox row leaving 'queued' (created, rejected, or for a person to look at): one audit entry.
CREATE FUNCTION vetted.audit_outbox_outcome() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  INSERT INTO vetted.audit_log (at, actor, action, customer_id, outcome, detail)
  VALUES (now(), NEW.submitted_by, 'customer.create',
          CASE WHEN NEW.state = 'created' THEN NEW.customer_id END,
          CASE WHEN NEW.state = 'created' THEN 'ok' ELSE NEW.state END,
          'draft ' || NEW.draft_id || ', sent by ' || session_user);
  RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION vetted.audit_outbox_outcome() FROM PUBLIC;
CREATE TRIGGER team_outbox_audit AFTER UPDATE OF state ON vetted.team_outbox
  FOR EACH ROW WHEN (OLD.state = 'queued' AND NEW.state <> 'queued')
  EXECUTE FUNCTION vetted.audit_outbox_outcome();

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
