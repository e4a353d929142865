// Team store migration 7 (#28): claims, roles and team settings.
//
// - `reviewer_roles`: each reviewer's role, reviewer (the default) or lead; only the administrator writes it
//   (`npm run team -- set-role`). `role_of(login)` reads it; the schema's owner (the administrator) counts
//   as 'administrator', allowed everything.
// - `claims`: who holds a case. Its primary key on customer_id makes a case claimable by exactly one reviewer:
//   a take is one INSERT … ON CONFLICT DO UPDATE … WHERE nobody holds it, so of two takes at the same instant
//   exactly one writes the row and the other learns who did. A released or expired claim stays as a row with
//   no holder (a tombstone with a new change number, as a released retry does): desks' replicas learn of it.
// - `team_settings`: one row per setting (its value JSON), seeded here; a lead changes one.
//
// Reviewers get SELECT on the tables (grants.ts) and write them only through the SECURITY DEFINER functions
// below, which check the caller's role and stamp session_user (inside them still the reviewer's login). Each
// claim change draws a change number under CHANGE_LOCK, as every replicated write does (the replica's order).
//
// The audit: the store cannot write an audit entry since migration 6 (it cannot seal one), so each function
// answers the entries its change needs (`audit`: action, customer, detail) and the caller appends them to
// the chain in the same transaction (main/team/claims/claim-store.ts; `set-role` for roles). That nobody
// skips this is the store's to enforce: a constraint trigger, deferred to the commit, refuses a transaction
// that changed a claim, a setting or a role without appending its entry (`require_audit_entry`). A lead-only
// audit action appended by a reviewer's login is refused by another trigger: the desk records a lead's
// action (an export with names, a stored image removed) before doing it, so a reviewer's desk that skipped
// its own check still cannot have the store record it. On audit_log it fires first (triggers fire by name:
// audit_log_lead_only, then migration 6's audit_log_link, then audit_log_stamp), before the head moves.
import { CHANGE_LOCK, CHANGES_CHANNEL } from '../sql.ts';
import type { TeamMigration } from './runner.ts';

/**
 * Audit actions only a lead (or the administrator) may record, as this migration wrote them: a migration is
 * never edited once released, so the list lives here frozen. Running code reads contract/audit-actions.ts's
 * LEAD_ONLY_AUDIT_ACTIONS; a later change to the list is a new migration, and a test keeps the two equal.
 */
const LEAD_ONLY_AUDIT_ACTIONS = [
  'claim.reassign',
  'claim.takeOver',
  'team.setting',
  'team.setRole',
  'queue.exportNames',
  'document.imagePurge',
] as const;

const ROLES = `
CREATE TABLE vetted.reviewer_roles (
  login text PRIMARY KEY,
  role text NOT NULL CHECK (role IN ('reviewer', 'lead')),
  set_at timestamptz NOT NULL DEFAULT now(),
  set_by text NOT NULL DEFAULT session_user
);

-- 'administrator' for whoever may act as the schema's owner (the administrator, a superuser); otherwise the
-- role the administrator set, 'reviewer' until then.
-- (A name no role has is a reviewer: pg_has_role is strict, so a missing oid gives null, not an error.)
CREATE FUNCTION vetted.role_of(p_login text) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN coalesce(pg_catalog.pg_has_role(a.oid, n.nspowner, 'USAGE'), false) THEN 'administrator'
    ELSE coalesce((SELECT r.role FROM vetted.reviewer_roles r WHERE r.login = p_login), 'reviewer')
  END
  FROM pg_catalog.pg_namespace n LEFT JOIN pg_catalog.pg_roles a ON a.rolname = p_login
  WHERE n.nspname = 'vetted'
$$;

-- A current member of the team's reviewers' group who can log in (a reassignment's target).
CREATE FUNCTION vetted.is_reviewer(p_login text) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT EXISTS (
    SELECT 1 FROM pg_catalog.pg_auth_members m
    JOIN pg_catalog.pg_roles g ON g.oid = m.roleid
    JOIN pg_catalog.pg_roles r ON r.oid = m.member
    WHERE g.rolname = (SELECT reviewer_role FROM vetted.team_meta) AND r.rolname = p_login AND r.rolcanlogin)
$$;

-- The team's reviewers with their roles: whom a lead may reassign a case to, the queue's "by reviewer".
CREATE FUNCTION vetted.team_reviewers() RETURNS TABLE (login text, role text) LANGUAGE sql STABLE AS $$
  SELECT r.rolname::text, coalesce(x.role, 'reviewer')
  FROM pg_catalog.pg_auth_members m
  JOIN pg_catalog.pg_roles g ON g.oid = m.roleid
  JOIN pg_catalog.pg_roles r ON r.oid = m.member
  LEFT JOIN vetted.reviewer_roles x ON x.login = r.rolname
  WHERE g.rolname = (SELECT reviewer_role FROM vetted.team_meta) AND r.rolcanlogin
  ORDER BY 1
$$;

-- Refuses, with SQLSTATE 42501 and the hint desks recognise, a reviewer doing a lead's action.
CREATE FUNCTION vetted.require_lead(p_action text) RETURNS void LANGUAGE plpgsql STABLE AS $$
BEGIN
  IF vetted.role_of(session_user) = 'reviewer' THEN
    RAISE EXCEPTION 'Only a lead of the team may do this (%).', p_action
      USING ERRCODE = 'insufficient_privilege', HINT = 'vetted:lead-only';
  END IF;
END $$;

-- SECURITY DEFINER: what it calls needs no reviewer's EXECUTE; session_user is still whoever appends.
CREATE FUNCTION vetted.audit_log_lead_only() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF NEW.action = ANY (ARRAY[${LEAD_ONLY_AUDIT_ACTIONS.map((action) => `'${action}'`).join(', ')}]) THEN
    PERFORM vetted.require_lead(NEW.action);
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER audit_log_lead_only BEFORE INSERT ON vetted.audit_log
  FOR EACH ROW EXECUTE FUNCTION vetted.audit_log_lead_only();

-- An audit entry a function's caller must append to the chain in its transaction.
CREATE FUNCTION vetted.audit_due(p_action text, p_customer text, p_detail text) RETURNS jsonb
  LANGUAGE sql IMMUTABLE AS $$
  SELECT jsonb_build_object('action', p_action, 'customerId', p_customer, 'detail', p_detail)
$$;

-- At the commit, once per row changed: the transaction must have appended the change's audit entry. A claim
-- needs claim.<how> for its customer (a take by an action or by "next" is a claim.take); a setting or a role
-- needs TG_ARGV[0] whose detail begins with the row's TG_ARGV[1] ("claim_idle_minutes: …", "bob: …"). An
-- entry of this transaction is a row it wrote (xmin; the desks append without savepoints).
CREATE FUNCTION vetted.require_audit_entry() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  v_row jsonb := to_jsonb(NEW);
  v_action text := TG_ARGV[0];
  v_subject text;
BEGIN
  IF TG_TABLE_NAME = 'claims' THEN
    v_action := 'claim.' || CASE WHEN v_row ->> 'how' IN ('take', 'action', 'next') THEN 'take'
                                 ELSE v_row ->> 'how' END;
    v_subject := v_row ->> 'customer_id';
    PERFORM FROM vetted.audit_log a WHERE a.customer_id = v_subject AND a.action = v_action
      AND a.xmin = pg_current_xact_id()::xid;
  ELSE
    v_subject := v_row ->> TG_ARGV[1];
    PERFORM FROM vetted.audit_log a WHERE a.action = v_action AND starts_with(a.detail, v_subject || ': ')
      AND a.xmin = pg_current_xact_id()::xid;
  END IF;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'Every change to % is audited in its transaction: % has no % entry.', TG_TABLE_NAME,
      v_subject, v_action USING ERRCODE = 'integrity_constraint_violation', HINT = 'vetted:unaudited';
  END IF;
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER reviewer_roles_audited AFTER INSERT OR UPDATE ON vetted.reviewer_roles
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  EXECUTE FUNCTION vetted.require_audit_entry('team.setRole', 'login');
`;

const SETTINGS = `
CREATE TABLE vetted.team_settings (
  name text PRIMARY KEY,
  value jsonb NOT NULL,
  changed_at timestamptz NOT NULL DEFAULT now(),
  changed_by text NOT NULL DEFAULT session_user,
  CONSTRAINT claim_idle_minutes CHECK (name <> 'claim_idle_minutes' OR (
    jsonb_typeof(value) = 'number' AND (value #>> '{}')::numeric BETWEEN 1 AND 1440
    AND (value #>> '{}')::numeric = trunc((value #>> '{}')::numeric)))
);
INSERT INTO vetted.team_settings (name, value) VALUES ('claim_idle_minutes', '30');
-- A change, not a migration's seed (a later one adding a setting has no key to seal an entry with).
CREATE CONSTRAINT TRIGGER team_settings_audited AFTER UPDATE ON vetted.team_settings
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  EXECUTE FUNCTION vetted.require_audit_entry('team.setting', 'name');

-- How long a claim lasts without an action by its holder.
CREATE FUNCTION vetted.claim_idle() RETURNS interval LANGUAGE sql STABLE AS $$
  SELECT make_interval(mins => coalesce(
    (SELECT (value #>> '{}')::int FROM vetted.team_settings WHERE name = 'claim_idle_minutes'), 30))
$$;

-- A lead changes a setting the migrations made (an unknown name is refused); answers its audit entry, with
-- the old and new values.
CREATE FUNCTION vetted.set_team_setting(p_name text, p_value jsonb) RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  v_old jsonb;
BEGIN
  PERFORM vetted.require_lead('change team settings');
  SELECT value INTO v_old FROM vetted.team_settings WHERE name = p_name FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'There is no team setting %.', p_name USING ERRCODE = 'invalid_parameter_value',
      HINT = 'vetted:unknown-setting';
  END IF;
  UPDATE vetted.team_settings SET value = p_value, changed_at = now(), changed_by = session_user
    WHERE name = p_name;
  RETURN jsonb_build_array(vetted.audit_due('team.setting', NULL, format('%s: %s → %s', p_name, v_old, p_value)));
END $$;
`;

const CLAIMS = `
CREATE TABLE vetted.claims (
  customer_id text PRIMARY KEY REFERENCES vetted.customers (id),
  seq bigint NOT NULL,
  -- The login holding the case; null once released or expired.
  holder text,
  since timestamptz,
  -- The holder's last action (a take, a retry, an upload): the claim expires an idle time after it.
  touched_at timestamptz,
  expires_at timestamptz,
  -- How the row came to be as it is, by whom and when; a reassignment's note or a take-over's reason, sealed
  -- on the desk with the team key (it may name the customer).
  how text NOT NULL CHECK (how IN ('take', 'action', 'next', 'reassign', 'takeOver', 'release', 'expire')),
  changed_by text NOT NULL,
  changed_at timestamptz NOT NULL,
  note text,
  CHECK ((holder IS NULL) = (since IS NULL) AND (holder IS NULL) = (touched_at IS NULL)
    AND (holder IS NULL) = (expires_at IS NULL))
);
CREATE INDEX claims_by_seq ON vetted.claims (seq);
CREATE INDEX claims_held ON vetted.claims (expires_at) WHERE holder IS NOT NULL;
-- Every claim written, and every change of holder or how; not a holder's touch (their idle time restarting).
CREATE CONSTRAINT TRIGGER claims_audited AFTER INSERT ON vetted.claims
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION vetted.require_audit_entry();
CREATE CONSTRAINT TRIGGER claims_changed_audited AFTER UPDATE ON vetted.claims
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.seq IS DISTINCT FROM NEW.seq OR OLD.holder IS DISTINCT FROM NEW.holder OR OLD.how <> NEW.how)
  EXECUTE FUNCTION vetted.require_audit_entry();

-- What every claim function answers: the outcome, the case and its holder now, the change number drawn, and
-- the audit entries its caller appends in the same transaction.
CREATE TYPE vetted.claim_outcome AS (outcome text, customer_id text, holder text, seq bigint, audit jsonb);

-- The next change number, as the desks' drawChange (team-db.ts): the lock makes numbers commit in order.
CREATE FUNCTION vetted.draw_change() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v_seq bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(${CHANGE_LOCK});
  v_seq := nextval('vetted.change_seq');
  PERFORM pg_notify('${CHANGES_CHANNEL}', v_seq::text);
  RETURN v_seq;
END $$;

-- Ends the claims whose idle time ran out (one customer's, or all); answers a claim.expire entry for each.
CREATE FUNCTION vetted.expire_claims(p_customer text, p_seq bigint) RETURNS jsonb LANGUAGE sql AS $$
  WITH due AS (
    SELECT customer_id, holder, touched_at FROM vetted.claims
    WHERE holder IS NOT NULL AND expires_at <= now() AND (p_customer IS NULL OR customer_id = p_customer)
    ORDER BY customer_id FOR UPDATE
  ), ended AS (
    UPDATE vetted.claims k SET holder = NULL, since = NULL, touched_at = NULL, expires_at = NULL, seq = p_seq,
      how = 'expire', changed_by = session_user, changed_at = now(), note = NULL
    FROM due WHERE k.customer_id = due.customer_id
    RETURNING k.customer_id
  )
  SELECT coalesce(jsonb_agg(vetted.audit_due('claim.expire', due.customer_id,
    format('%s''s claim, idle since %s', due.holder,
      to_char(due.touched_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))) ORDER BY due.customer_id), '[]')
  FROM due JOIN ended ON ended.customer_id = due.customer_id
$$;

-- Writes the case's claim as p_holder's, made by the caller (how, note). With p_only_free it is the one atomic
-- take: the row is written only where nobody holds it, so of two takes at the same instant the primary key
-- lets exactly one write. Returns whether it wrote.
CREATE FUNCTION vetted.write_claim(p_customer text, p_seq bigint, p_holder text, p_how text, p_note text,
  p_only_free boolean) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO vetted.claims AS k (customer_id, seq, holder, since, touched_at, expires_at, how, changed_by,
    changed_at, note)
  VALUES (p_customer, p_seq, p_holder, now(), now(), now() + vetted.claim_idle(), p_how, session_user, now(),
    p_note)
  ON CONFLICT (customer_id) DO UPDATE SET seq = excluded.seq, holder = excluded.holder, since = excluded.since,
    touched_at = excluded.touched_at, expires_at = excluded.expires_at, how = excluded.how,
    changed_by = excluded.changed_by, changed_at = excluded.changed_at, note = excluded.note
  WHERE NOT p_only_free OR k.holder IS NULL;
  RETURN FOUND;
END $$;

-- Takes a case for the caller ('take': explicitly, 'action': on their first action on it). Outcomes:
-- 'held' (theirs already: its idle time starts again), 'taken', or 'refused' with who holds it. A claim of
-- someone else's that ran out is ended first (its claim.expire entry comes before the take's).
CREATE FUNCTION vetted.claim_take(p_customer text, p_how text DEFAULT 'take') RETURNS vetted.claim_outcome
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  v_seq bigint;
  v_holder text;
  v_audit jsonb;
BEGIN
  IF p_how NOT IN ('take', 'action') THEN
    RAISE EXCEPTION 'A claim is taken by a take or an action, not %.', p_how
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  -- The caller's own live claim: touched, no new change number (replicas copy who holds, not until when).
  UPDATE vetted.claims SET touched_at = now(), expires_at = now() + vetted.claim_idle()
    WHERE customer_id = p_customer AND holder = session_user AND expires_at > now();
  IF FOUND THEN
    RETURN ('held', p_customer, session_user, NULL, '[]')::vetted.claim_outcome;
  END IF;
  v_seq := vetted.draw_change();
  v_audit := vetted.expire_claims(p_customer, v_seq);
  IF vetted.write_claim(p_customer, v_seq, session_user, p_how, NULL, true) THEN
    RETURN ('taken', p_customer, session_user, v_seq,
      v_audit || jsonb_build_array(vetted.audit_due('claim.take', p_customer, p_how)))::vetted.claim_outcome;
  END IF;
  SELECT holder INTO v_holder FROM vetted.claims WHERE customer_id = p_customer;
  RETURN (CASE WHEN v_holder = session_user THEN 'held' ELSE 'refused' END, p_customer, v_holder, v_seq,
    v_audit)::vetted.claim_outcome;
END $$;

-- The holder lets go: 'released', or 'refused' with who holds it (nobody: null).
CREATE FUNCTION vetted.claim_release(p_customer text) RETURNS vetted.claim_outcome
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  v_seq bigint := vetted.draw_change();
  v_holder text;
BEGIN
  UPDATE vetted.claims SET holder = NULL, since = NULL, touched_at = NULL, expires_at = NULL, seq = v_seq,
    how = 'release', changed_by = session_user, changed_at = now(), note = NULL
    WHERE customer_id = p_customer AND holder = session_user;
  IF FOUND THEN
    RETURN ('released', p_customer, NULL, v_seq,
      jsonb_build_array(vetted.audit_due('claim.release', p_customer, NULL)))::vetted.claim_outcome;
  END IF;
  SELECT holder INTO v_holder FROM vetted.claims WHERE customer_id = p_customer;
  RETURN ('refused', p_customer, v_holder, v_seq, '[]')::vetted.claim_outcome;
END $$;

-- A lead's hand-over (reassign, take over): the case becomes p_to's whoever held it, with a sealed note; its
-- entry says who held it before. A take-over of the lead's own case changes nothing.
CREATE FUNCTION vetted.hand_over(p_customer text, p_to text, p_how text, p_note text)
  RETURNS vetted.claim_outcome LANGUAGE plpgsql AS $$
DECLARE
  v_seq bigint := vetted.draw_change();
  v_from text;
BEGIN
  SELECT holder INTO v_from FROM vetted.claims WHERE customer_id = p_customer FOR UPDATE;
  IF p_how = 'takeOver' AND v_from = p_to THEN
    RETURN ('held', p_customer, p_to, v_seq, '[]')::vetted.claim_outcome;
  END IF;
  PERFORM vetted.write_claim(p_customer, v_seq, p_to, p_how, p_note, false);
  RETURN (CASE WHEN p_how = 'reassign' THEN 'reassigned' ELSE 'taken' END, p_customer, p_to, v_seq,
    jsonb_build_array(vetted.audit_due('claim.' || p_how, p_customer, format('from %s', coalesce(v_from, 'nobody'))
      || CASE WHEN p_how = 'reassign' THEN ' to ' || p_to ELSE '' END)))::vetted.claim_outcome;
END $$;

-- A lead gives the case to p_to (a current reviewer), whoever held it, with a sealed note.
CREATE FUNCTION vetted.claim_reassign(p_customer text, p_to text, p_note text) RETURNS vetted.claim_outcome
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM vetted.require_lead('reassign a case');
  IF NOT vetted.is_reviewer(p_to) THEN
    RAISE EXCEPTION 'There is no reviewer % in this team.', p_to USING ERRCODE = 'invalid_parameter_value',
      HINT = 'vetted:no-such-reviewer';
  END IF;
  RETURN vetted.hand_over(p_customer, p_to, 'reassign', p_note);
END $$;

-- A lead takes the case from whoever holds it, with a sealed reason; the previous holder's desk is told (it
-- reads the change). A case nobody holds is simply taken.
CREATE FUNCTION vetted.claim_take_over(p_customer text, p_reason text) RETURNS vetted.claim_outcome
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM vetted.require_lead('take over a case');
  RETURN vetted.hand_over(p_customer, session_user, 'takeOver', p_reason);
END $$;

-- Auto-assignment: the caller takes the unclaimed case of these sections that has waited longest (an expired
-- claim counts as unclaimed). Callers take turns on CHANGE_LOCK; should a take still lose, the next
-- candidate is tried. 'taken' with the case, or 'none' when none waits.
CREATE FUNCTION vetted.claim_next(p_sections text[]) RETURNS vetted.claim_outcome
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  v_seq bigint := vetted.draw_change();
  v_audit jsonb := '[]';
  v_id text;
BEGIN
  FOR v_id IN
    SELECT c.id FROM vetted.customers c LEFT JOIN vetted.claims k ON k.customer_id = c.id
    WHERE c.gone_at IS NULL AND c.section = ANY (p_sections) AND (k.holder IS NULL OR k.expires_at <= now())
    ORDER BY c.status_since, c.id LIMIT 20
  LOOP
    v_audit := v_audit || vetted.expire_claims(v_id, v_seq);
    IF vetted.write_claim(v_id, v_seq, session_user, 'next', NULL, true) THEN
      RETURN ('taken', v_id, session_user, v_seq,
        v_audit || jsonb_build_array(vetted.audit_due('claim.take', v_id, 'next')))::vetted.claim_outcome;
    END IF;
  END LOOP;
  RETURN ('none', NULL, NULL, v_seq, v_audit)::vetted.claim_outcome;
END $$;

-- Any desk sweeps now and then: ends the claims that ran out and answers their claim.expire entries, which
-- the desk that ended them appends.
CREATE FUNCTION vetted.claims_expire() RETURNS jsonb
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM vetted.claims WHERE holder IS NOT NULL AND expires_at <= now()) THEN
    RETURN '[]';
  END IF;
  RETURN vetted.expire_claims(NULL, vetted.draw_change());
END $$;
`;

// Functions are executable by PUBLIC unless revoked: nobody may call these but whom grants.ts names
// (REVIEWER_FUNCTIONS), and the internal ones nobody at all.
const PRIVATE = `
REVOKE ALL ON FUNCTION vetted.claim_take(text, text), vetted.claim_release(text),
  vetted.claim_reassign(text, text, text), vetted.claim_take_over(text, text), vetted.claim_next(text[]),
  vetted.claims_expire(), vetted.set_team_setting(text, jsonb), vetted.role_of(text), vetted.team_reviewers(),
  vetted.is_reviewer(text), vetted.require_lead(text), vetted.claim_idle(), vetted.audit_due(text, text, text),
  vetted.require_audit_entry(), vetted.audit_log_lead_only(), vetted.draw_change(),
  vetted.expire_claims(text, bigint), vetted.write_claim(text, bigint, text, text, text, boolean),
  vetted.hand_over(text, text, text, text)
FROM PUBLIC;
`;

export const CLAIMS_ROLES: TeamMigration = {
  version: 7,
  name: 'claims, reviewer roles and team settings, each change audited in its transaction',
  sql: ROLES + SETTINGS + CLAIMS + PRIVATE,
};
