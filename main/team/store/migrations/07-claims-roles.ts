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
// below, which check the caller's role and stamp session_user (inside them still the reviewer's login). Every
// claim change draws a change number under CHANGE_LOCK, as every replicated write does (so claim writes take
// turns, which the unique take does not need but the replica's ordering does), and is audited. A lead-only
// audit action written by a reviewer's login is refused by a trigger: the desk records a lead's action
// (an export with names, a stored image removed) in the audit log before doing it, so a reviewer's desk that
// skipped its own check still cannot have the store record it.
import { CHANGE_LOCK, CHANGES_CHANNEL } from '../sql.ts';
import type { TeamMigration } from './runner.ts';

/** Audit actions only a lead (or the administrator) may record. Desks name them the same (main/claims/). */
export const LEAD_ONLY_AUDIT_ACTIONS = [
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

CREATE FUNCTION vetted.audit_log_lead_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.action = ANY (ARRAY[${LEAD_ONLY_AUDIT_ACTIONS.map((action) => `'${action}'`).join(', ')}]) THEN
    PERFORM vetted.require_lead(NEW.action);
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER audit_log_lead_only BEFORE INSERT ON vetted.audit_log
  FOR EACH ROW EXECUTE FUNCTION vetted.audit_log_lead_only();
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

-- How long a claim lasts without an action by its holder.
CREATE FUNCTION vetted.claim_idle() RETURNS interval LANGUAGE sql STABLE AS $$
  SELECT make_interval(mins => coalesce(
    (SELECT (value #>> '{}')::int FROM vetted.team_settings WHERE name = 'claim_idle_minutes'), 30))
$$;

-- A lead changes a setting the migrations made (an unknown name is refused); audited with old and new values.
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
  INSERT INTO vetted.audit_log (at, action, outcome, detail)
    VALUES (now(), 'team.setting', 'ok', format('%s: %s → %s', p_name, v_old, p_value));
  RETURN p_value;
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

-- Ends the claims whose idle time ran out (one customer's, or all), each audited; returns how many.
CREATE FUNCTION vetted.expire_claims(p_customer text, p_seq bigint) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_count integer;
BEGIN
  WITH due AS (
    SELECT customer_id, holder, touched_at FROM vetted.claims
    WHERE holder IS NOT NULL AND expires_at <= now() AND (p_customer IS NULL OR customer_id = p_customer)
    FOR UPDATE
  ), ended AS (
    UPDATE vetted.claims k SET holder = NULL, since = NULL, touched_at = NULL, expires_at = NULL, seq = p_seq,
      how = 'expire', changed_by = session_user, changed_at = now(), note = NULL
    FROM due WHERE k.customer_id = due.customer_id
    RETURNING k.customer_id
  )
  INSERT INTO vetted.audit_log (at, action, customer_id, outcome, detail)
  SELECT now(), 'claim.expire', due.customer_id, 'ok',
    format('%s''s claim, idle since %s', due.holder, to_char(due.touched_at AT TIME ZONE 'UTC',
      'YYYY-MM-DD"T"HH24:MI:SS"Z"'))
  FROM due JOIN ended ON ended.customer_id = due.customer_id;
  GET DIAGNOSTICS v_count = ROW_COUNT;
  RETURN v_count;
END $$;

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

-- The caller takes a case nobody holds; audited. Returns whether this call took it.
CREATE FUNCTION vetted.take_free(p_customer text, p_seq bigint, p_how text) RETURNS boolean
  LANGUAGE plpgsql AS $$
BEGIN
  IF NOT vetted.write_claim(p_customer, p_seq, session_user, p_how, NULL, true) THEN
    RETURN false;
  END IF;
  INSERT INTO vetted.audit_log (at, action, customer_id, outcome, detail)
    VALUES (now(), 'claim.take', p_customer, 'ok', p_how);
  RETURN true;
END $$;

-- What every claim function answers: the outcome, the case's holder now, and the change number drawn.
CREATE TYPE vetted.claim_outcome AS (outcome text, holder text, seq bigint);

-- Takes a case for the caller ('take': explicitly, 'action': on their first action on it). Outcomes:
-- 'held' (theirs already: its idle time starts again), 'taken', or 'refused' with who holds it.
CREATE FUNCTION vetted.claim_take(p_customer text, p_how text DEFAULT 'take') RETURNS vetted.claim_outcome
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  v_seq bigint;
  v_holder text;
BEGIN
  IF p_how NOT IN ('take', 'action') THEN
    RAISE EXCEPTION 'A claim is taken by a take or an action, not %.', p_how
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  -- The caller's own live claim: touched, no new change number (replicas copy who holds, not until when).
  UPDATE vetted.claims SET touched_at = now(), expires_at = now() + vetted.claim_idle()
    WHERE customer_id = p_customer AND holder = session_user AND expires_at > now();
  IF FOUND THEN
    RETURN ('held', session_user, NULL)::vetted.claim_outcome;
  END IF;
  v_seq := vetted.draw_change();
  PERFORM vetted.expire_claims(p_customer, v_seq);
  IF vetted.take_free(p_customer, v_seq, p_how) THEN
    RETURN ('taken', session_user, v_seq)::vetted.claim_outcome;
  END IF;
  SELECT holder INTO v_holder FROM vetted.claims WHERE customer_id = p_customer;
  RETURN (CASE WHEN v_holder = session_user THEN 'held' ELSE 'refused' END, v_holder, v_seq)::vetted.claim_outcome;
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
    INSERT INTO vetted.audit_log (at, action, customer_id, outcome) VALUES (now(), 'claim.release', p_customer, 'ok');
    RETURN ('released', NULL, v_seq)::vetted.claim_outcome;
  END IF;
  SELECT holder INTO v_holder FROM vetted.claims WHERE customer_id = p_customer;
  RETURN ('refused', v_holder, v_seq)::vetted.claim_outcome;
END $$;

-- A lead's hand-over (reassign, take over): the case becomes p_to's whoever held it, with a sealed note,
-- audited with who held it before. A take-over of the lead's own case changes nothing.
CREATE FUNCTION vetted.hand_over(p_customer text, p_to text, p_how text, p_note text)
  RETURNS vetted.claim_outcome LANGUAGE plpgsql AS $$
DECLARE
  v_seq bigint := vetted.draw_change();
  v_from text;
BEGIN
  SELECT holder INTO v_from FROM vetted.claims WHERE customer_id = p_customer FOR UPDATE;
  IF p_how = 'takeOver' AND v_from = p_to THEN
    RETURN ('held', p_to, v_seq)::vetted.claim_outcome;
  END IF;
  PERFORM vetted.write_claim(p_customer, v_seq, p_to, p_how, p_note, false);
  INSERT INTO vetted.audit_log (at, action, customer_id, outcome, detail)
    VALUES (now(), 'claim.' || p_how, p_customer, 'ok', format('from %s', coalesce(v_from, 'nobody'))
      || CASE WHEN p_how = 'reassign' THEN ' to ' || p_to ELSE '' END);
  RETURN (CASE WHEN p_how = 'reassign' THEN 'reassigned' ELSE 'taken' END, p_to, v_seq)::vetted.claim_outcome;
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
-- candidate is tried. Returns the case taken, or null when none waits.
CREATE FUNCTION vetted.claim_next(p_sections text[]) RETURNS text
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  v_seq bigint := vetted.draw_change();
  v_id text;
BEGIN
  FOR v_id IN
    SELECT c.id FROM vetted.customers c LEFT JOIN vetted.claims k ON k.customer_id = c.id
    WHERE c.gone_at IS NULL AND c.section = ANY (p_sections) AND (k.holder IS NULL OR k.expires_at <= now())
    ORDER BY c.status_since, c.id LIMIT 20
  LOOP
    PERFORM vetted.expire_claims(v_id, v_seq);
    IF vetted.take_free(v_id, v_seq, 'next') THEN
      RETURN v_id;
    END IF;
  END LOOP;
  RETURN NULL;
END $$;

-- Any desk sweeps now and then; a claim's expiry is audited once, by whichever desk ended it.
CREATE FUNCTION vetted.claims_expire() RETURNS integer
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM vetted.claims WHERE holder IS NOT NULL AND expires_at <= now()) THEN
    RETURN 0;
  END IF;
  RETURN vetted.expire_claims(NULL, vetted.draw_change());
END $$;
`;

/** The functions a reviewer's login may call (admin/grants.ts lists them with the rest). */
const CALLABLE = [
  'claim_take(text, text)',
  'claim_release(text)',
  'claim_reassign(text, text, text)',
  'claim_take_over(text, text)',
  'claim_next(text[])',
  'claims_expire()',
  'set_team_setting(text, jsonb)',
] as const;

// The functions that write run as their owner: nobody but the reviewers' group (grants.ts) may call them, and
// the internal ones nobody at all.
const PRIVATE = `
REVOKE ALL ON FUNCTION ${[
  ...CALLABLE,
  'draw_change()',
  'expire_claims(text, bigint)',
  'take_free(text, bigint, text)',
  'write_claim(text, bigint, text, text, text, boolean)',
  'hand_over(text, text, text, text)',
]
  .map((signature) => `vetted.${signature}`)
  .join(', ')} FROM PUBLIC;
`;

export const CLAIMS_ROLES: TeamMigration = {
  version: 7,
  name: 'claims, reviewer roles and team settings',
  sql: ROLES + SETTINGS + CLAIMS + PRIVATE,
};
