// Team store migration 8 (#28): four eyes. A lead's team setting puts chosen actions (the one-time retry with
// the full SSN, an export with names) behind a second reviewer's approval.
//
// - `approvals`: one row per action waiting (or waited) for approval. Its payload (the retry's form with the
//   full SSN, the export's section, search and reason) is sealed on the maker's desk with the team key: the
//   store never sees it in plaintext. It is DELETED (set to null, the constraint below proves it) once the
//   action is sent, rejected, cancelled or expired; a retry's as soon as it is approved, since the approving
//   desk takes it in the same statement to send it.
// - The rules are the store's, in SECURITY DEFINER functions a reviewer's login can call but not bypass:
//   only a lead (or the administrator) decides; never the maker (session_user); a decision claims the row
//   under FOR UPDATE, so of two approvers at the same instant exactly one wins; an expired row cannot be
//   decided. Each function answers the audit entries its change needs and the desk appends them in the same
//   transaction; a constraint trigger refuses a commit without them (as migration 7's claims).
// - Every change is notified on APPROVALS_CHANNEL at commit (the transaction's id: listeners read a number).
// - `four_eyes` team setting: which actions wait, and after how many hours a waiting one expires (24).
import { APPROVALS_CHANNEL } from '../sql.ts';
import type { TeamMigration } from './runner.ts';

const SETTING = `
INSERT INTO vetted.team_settings (name, value)
  VALUES ('four_eyes', '{"retry": false, "exportNames": false, "expiryHours": 24}');
ALTER TABLE vetted.team_settings ADD CONSTRAINT four_eyes CHECK (name <> 'four_eyes' OR coalesce(
  jsonb_typeof(value -> 'retry') = 'boolean' AND jsonb_typeof(value -> 'exportNames') = 'boolean'
  AND jsonb_typeof(value -> 'expiryHours') = 'number'
  AND (value ->> 'expiryHours')::numeric BETWEEN 1 AND 720
  AND (value ->> 'expiryHours')::numeric = trunc((value ->> 'expiryHours')::numeric)
  AND value - 'retry' - 'exportNames' - 'expiryHours' = '{}'::jsonb, false));
`;

const TABLE = `
CREATE TABLE vetted.approvals (
  id uuid PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('retry', 'exportNames')),
  customer_id text REFERENCES vetted.customers (id),
  maker text NOT NULL DEFAULT session_user,
  requested_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  state text NOT NULL DEFAULT 'pending'
    CHECK (state IN ('pending', 'approved', 'rejected', 'cancelled', 'expired', 'sent')),
  -- Sealed on the maker's desk (team key); gone once nothing more will be sent.
  payload text,
  checker text,
  decided_at timestamptz,
  -- The checker's note, sealed on their desk (it may name the customer).
  note text,
  finished_at timestamptz,
  outcome text,
  CHECK ((kind = 'retry') = (customer_id IS NOT NULL)),
  CHECK (state = 'pending' OR (state = 'approved' AND kind = 'exportNames') OR payload IS NULL),
  CHECK (checker IS NULL OR checker <> maker)
);
CREATE INDEX approvals_open ON vetted.approvals (expires_at) WHERE state IN ('pending', 'approved');
-- One retry of a customer waits at a time (there is one retry to send).
CREATE UNIQUE INDEX approvals_one_retry ON vetted.approvals (customer_id)
  WHERE kind = 'retry' AND state IN ('pending', 'approved', 'sent');

-- The action of the audit entry each state is reached by; the entry's detail begins with the row's id.
CREATE FUNCTION vetted.approval_action(p_state text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT 'approval.' || CASE p_state WHEN 'pending' THEN 'request' WHEN 'approved' THEN 'approve'
    WHEN 'rejected' THEN 'reject' WHEN 'cancelled' THEN 'cancel' WHEN 'expired' THEN 'expire'
    ELSE 'sent' END
$$;

CREATE FUNCTION vetted.approvals_audited() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM FROM vetted.audit_log a WHERE a.action = vetted.approval_action(NEW.state)
    AND starts_with(a.detail, NEW.id::text || ': ') AND a.xmin = pg_current_xact_id()::xid;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'Every change to an approval is audited in its transaction: % has no % entry.', NEW.id,
      vetted.approval_action(NEW.state) USING ERRCODE = 'integrity_constraint_violation', HINT = 'vetted:unaudited';
  END IF;
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER approvals_audited AFTER INSERT OR UPDATE OF state ON vetted.approvals
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION vetted.approvals_audited();

CREATE FUNCTION vetted.approvals_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('${APPROVALS_CHANNEL}', pg_current_xact_id()::text);
  RETURN NULL;
END $$;
CREATE TRIGGER approvals_notify AFTER INSERT OR UPDATE ON vetted.approvals
  FOR EACH ROW EXECUTE FUNCTION vetted.approvals_notify();

CREATE FUNCTION vetted.approval_due(p_row vetted.approvals, p_detail text) RETURNS jsonb
  LANGUAGE sql IMMUTABLE AS $$
  SELECT vetted.audit_due(vetted.approval_action(p_row.state), p_row.customer_id,
    p_row.id::text || ': ' || p_row.kind || coalesce(' · ' || p_detail, ''))
$$;

-- Refuses, with a hint the desks read, an approval that is not there or not in the state an action needs.
CREATE FUNCTION vetted.approval_refuse(p_why text, p_hint text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '%', p_why USING ERRCODE = 'check_violation', HINT = 'vetted:' || p_hint;
END $$;

-- The row, locked; refused when missing or not in p_state (an expired pending row counts as expired).
CREATE FUNCTION vetted.approval_locked(p_id uuid, p_state text) RETURNS vetted.approvals
  LANGUAGE plpgsql AS $$
DECLARE
  v vetted.approvals;
BEGIN
  SELECT * INTO v FROM vetted.approvals WHERE id = p_id FOR UPDATE;
  IF NOT FOUND THEN
    PERFORM vetted.approval_refuse('There is no such approval.', 'no-such-approval');
  END IF;
  IF v.state = 'pending' AND v.expires_at <= now() THEN
    PERFORM vetted.approval_refuse('This approval expired.', 'approval-settled');
  END IF;
  IF v.state <> p_state THEN
    PERFORM vetted.approval_refuse(format('This approval is %s already.', v.state), 'approval-settled');
  END IF;
  RETURN v;
END $$;
`;

const FUNCTIONS = `
-- The maker asks: the row is theirs (session_user), expiring the team's setting's hours from now.
CREATE FUNCTION vetted.approval_request(p_id uuid, p_kind text, p_customer text, p_payload text)
  RETURNS jsonb LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  v vetted.approvals;
  v_hours int := coalesce((SELECT (value ->> 'expiryHours')::int FROM vetted.team_settings
    WHERE name = 'four_eyes'), 24);
BEGIN
  INSERT INTO vetted.approvals (id, kind, customer_id, expires_at, payload)
    VALUES (p_id, p_kind, p_customer, now() + make_interval(hours => v_hours), p_payload)
    RETURNING * INTO v;
  RETURN jsonb_build_array(vetted.approval_due(v, format('expires %s',
    to_char(v.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))));
END $$;

-- A lead other than the maker approves or rejects a pending row, with a sealed note. Answers the payload a
-- retry's approver sends (deleted from the row in the same statement), and the audit entry.
CREATE FUNCTION vetted.approval_decide(p_id uuid, p_approve boolean, p_note text)
  RETURNS TABLE (kind text, customer_id text, maker text, payload text, audit jsonb)
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  v vetted.approvals;
  v_payload text;
BEGIN
  PERFORM vetted.require_lead('approve');
  v := vetted.approval_locked(p_id, 'pending');
  IF v.maker = session_user THEN
    PERFORM vetted.approval_refuse('Nobody approves their own action.', 'own-approval');
  END IF;
  v_payload := v.payload;
  UPDATE vetted.approvals a SET state = CASE WHEN p_approve THEN 'approved' ELSE 'rejected' END,
    checker = session_user, decided_at = now(), note = p_note,
    payload = CASE WHEN p_approve AND a.kind = 'exportNames' THEN a.payload END
    WHERE a.id = p_id RETURNING * INTO v;
  RETURN QUERY SELECT v.kind, v.customer_id, v.maker, CASE WHEN p_approve THEN v_payload END,
    jsonb_build_array(vetted.approval_due(v, NULL));
END $$;

-- An approved action done: a retry by the lead who approved it (with what the service answered), an export
-- by its maker, who takes its payload here (deleted in the same statement).
CREATE FUNCTION vetted.approval_finish(p_id uuid, p_outcome text)
  RETURNS TABLE (payload text, audit jsonb)
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  v vetted.approvals;
  v_payload text;
BEGIN
  v := vetted.approval_locked(p_id, 'approved');
  IF session_user <> (CASE v.kind WHEN 'retry' THEN v.checker ELSE v.maker END) THEN
    PERFORM vetted.approval_refuse(CASE v.kind WHEN 'retry' THEN 'The lead who approved it sends it.'
      ELSE 'Only who asked for it takes the approved export.' END, 'not-yours');
  END IF;
  v_payload := v.payload;
  UPDATE vetted.approvals a SET state = 'sent', payload = NULL, finished_at = now(), outcome = p_outcome
    WHERE a.id = p_id RETURNING * INTO v;
  RETURN QUERY SELECT v_payload, jsonb_build_array(vetted.approval_due(v, p_outcome));
END $$;

-- The maker withdraws a pending row.
CREATE FUNCTION vetted.approval_cancel(p_id uuid) RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  v vetted.approvals := vetted.approval_locked(p_id, 'pending');
BEGIN
  IF v.maker <> session_user THEN
    PERFORM vetted.approval_refuse('Only who asked can withdraw it.', 'not-yours');
  END IF;
  UPDATE vetted.approvals SET state = 'cancelled', payload = NULL, finished_at = now() WHERE id = p_id
    RETURNING * INTO v;
  RETURN jsonb_build_array(vetted.approval_due(v, NULL));
END $$;

-- Any desk sweeps: pending rows past their time expire and their payload is deleted; an entry for each.
CREATE FUNCTION vetted.approvals_expire() RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  v_audit jsonb := '[]';
  v vetted.approvals;
BEGIN
  FOR v IN UPDATE vetted.approvals SET state = 'expired', payload = NULL, finished_at = now()
    WHERE id IN (SELECT id FROM vetted.approvals WHERE state = 'pending' AND expires_at <= now()
      ORDER BY id FOR UPDATE SKIP LOCKED) RETURNING *
  LOOP
    v_audit := v_audit || vetted.approval_due(v, NULL);
  END LOOP;
  RETURN v_audit;
END $$;

REVOKE ALL ON FUNCTION vetted.approval_request(uuid, text, text, text),
  vetted.approval_decide(uuid, boolean, text), vetted.approval_finish(uuid, text),
  vetted.approval_cancel(uuid), vetted.approvals_expire(), vetted.approval_action(text),
  vetted.approvals_audited(), vetted.approvals_notify(), vetted.approval_due(vetted.approvals, text),
  vetted.approval_refuse(text, text), vetted.approval_locked(uuid, text)
FROM PUBLIC;
`;

export const FOUR_EYES: TeamMigration = {
  version: 8,
  name: 'four eyes: actions waiting for a second reviewer, sealed, decided in the store',
  sql: SETTING + TABLE + FUNCTIONS,
};
