// Team store migration 14 (#39): a hub is marked as one, and never offered as a person.
//
// A hub logs in like a reviewer (a login in the team's group), so until now every list of people showed it:
// "Who has it", the lead's Reassign list, the Team screen's reviewers (a stopped hub as an offline reviewer).
// - `hubs`: the logins the administrator marked as hubs (`npm run team -- add-hub NAME`, or `mark-hub NAME`
//   for a hub added with add-reviewer before). Only the administrator writes it (grants.ts gives reviewers
//   SELECT only), and each mark is audited in its transaction (team.markHub, sealed with the key file) like a
//   role change. A hub cannot mark its own login: its login is a member of the group like any reviewer's,
//   so a function letting a login mark itself would let any reviewer drop out of the lists (and out of
//   reassignments) unseen.
// - `team_reviewers()` and `is_reviewer()` leave hubs out: the people a case may be given to, the queue's
//   "by reviewer", the Team screen's reviewers. `team_hubs()` lists the hubs apart (the Team screen's "Hubs";
//   `rotate-key --join-codes` gives them codes too).
// - The store refuses what would treat a hub as a person: a hub holding a case (a claim's holder) and a hub
//   as a lead (either order: a lead marked, a hub made a lead).
import type { TeamMigration } from './runner.ts';

const SQL = `
CREATE TABLE vetted.hubs (
  login text PRIMARY KEY,
  marked_at timestamptz NOT NULL DEFAULT now(),
  marked_by text NOT NULL DEFAULT session_user
);
CREATE CONSTRAINT TRIGGER hubs_audited AFTER INSERT ON vetted.hubs
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  EXECUTE FUNCTION vetted.require_audit_entry('team.markHub', 'login');

CREATE FUNCTION vetted.is_hub(p_login text) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM vetted.hubs WHERE login = p_login)
$$;

-- A current member of the team's reviewers' group who can log in and is a person (a reassignment's target).
CREATE OR REPLACE FUNCTION vetted.is_reviewer(p_login text) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT EXISTS (
    SELECT 1 FROM pg_catalog.pg_auth_members m
    JOIN pg_catalog.pg_roles g ON g.oid = m.roleid
    JOIN pg_catalog.pg_roles r ON r.oid = m.member
    WHERE g.rolname = (SELECT reviewer_role FROM vetted.team_meta) AND r.rolname = p_login AND r.rolcanlogin)
    AND NOT vetted.is_hub(p_login)
$$;

-- The team's reviewers, people only, with their roles: whom a lead may reassign a case to, the queue's
-- "by reviewer", the Team screen's reviewers.
CREATE OR REPLACE FUNCTION vetted.team_reviewers() RETURNS TABLE (login text, role text)
  LANGUAGE sql STABLE AS $$
  SELECT r.rolname::text, coalesce(x.role, 'reviewer')
  FROM pg_catalog.pg_auth_members m
  JOIN pg_catalog.pg_roles g ON g.oid = m.roleid
  JOIN pg_catalog.pg_roles r ON r.oid = m.member
  LEFT JOIN vetted.reviewer_roles x ON x.login = r.rolname
  WHERE g.rolname = (SELECT reviewer_role FROM vetted.team_meta) AND r.rolcanlogin
    AND NOT EXISTS (SELECT 1 FROM vetted.hubs h WHERE h.login = r.rolname)
  ORDER BY 1
$$;

-- The team's hubs that can log in. (These two run as the reviewer who asks, with what they may read: the
-- hubs table, not is_hub, which only the store's own functions call.)
CREATE FUNCTION vetted.team_hubs() RETURNS TABLE (login text) LANGUAGE sql STABLE AS $$
  SELECT r.rolname::text
  FROM pg_catalog.pg_auth_members m
  JOIN pg_catalog.pg_roles g ON g.oid = m.roleid
  JOIN pg_catalog.pg_roles r ON r.oid = m.member
  WHERE g.rolname = (SELECT reviewer_role FROM vetted.team_meta) AND r.rolcanlogin
    AND EXISTS (SELECT 1 FROM vetted.hubs h WHERE h.login = r.rolname)
  ORDER BY 1
$$;

-- A hub is not a person: it holds no case and is no lead. SECURITY DEFINER: it fires inside a reviewer's
-- claim function or the administrator's commands alike.
CREATE FUNCTION vetted.hub_is_no_person() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  v_login text := CASE TG_TABLE_NAME WHEN 'claims' THEN to_jsonb(NEW) ->> 'holder'
                  ELSE to_jsonb(NEW) ->> 'login' END;
BEGIN
  IF v_login IS NULL OR NOT vetted.is_hub(v_login) THEN
    RETURN NEW;
  END IF;
  IF TG_TABLE_NAME = 'claims' THEN
    RAISE EXCEPTION '% is a hub: a hub holds no case.', v_login
      USING ERRCODE = 'integrity_constraint_violation', HINT = 'vetted:hub-not-a-person';
  END IF;
  IF EXISTS (SELECT 1 FROM vetted.reviewer_roles WHERE login = v_login AND role = 'lead') THEN
    RAISE EXCEPTION '% is a hub: a hub is not a person and cannot be a lead.', v_login
      USING ERRCODE = 'integrity_constraint_violation', HINT = 'vetted:hub-not-a-person';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER claims_hub_no_holder BEFORE INSERT OR UPDATE OF holder ON vetted.claims
  FOR EACH ROW EXECUTE FUNCTION vetted.hub_is_no_person();
CREATE CONSTRAINT TRIGGER hubs_no_lead AFTER INSERT ON vetted.hubs
  FOR EACH ROW EXECUTE FUNCTION vetted.hub_is_no_person();
CREATE CONSTRAINT TRIGGER reviewer_roles_no_hub_lead AFTER INSERT OR UPDATE ON vetted.reviewer_roles
  FOR EACH ROW EXECUTE FUNCTION vetted.hub_is_no_person();

REVOKE ALL ON FUNCTION vetted.is_hub(text), vetted.team_hubs(), vetted.hub_is_no_person() FROM PUBLIC;
`;

export const HUBS: TeamMigration = {
  version: 14,
  name: 'hubs marked as hubs, never offered as people',
  sql: SQL,
};
