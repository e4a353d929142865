// Team store migration 2: who did something is the database login, whatever a client sends. Migration 1 had
// `DEFAULT session_user` on these columns, which a client could override by naming the column in its
// INSERT, and table-wide UPDATE grants let a reviewer rewrite them afterwards. Two locks, as on the audit
// log: these triggers stamp the login on INSERT and keep it on UPDATE, and the reviewers' grants (admin/
// grants.ts) leave these columns out of what an UPDATE may set.
export const TEAM_SCHEMA_V2_STAMPS = `
-- A note's author: the login that wrote it; notes are never updated (no UPDATE grant).
CREATE FUNCTION vetted.notes_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.author := session_user;
  RETURN NEW;
END $$;
CREATE TRIGGER notes_stamp BEFORE INSERT ON vetted.notes
  FOR EACH ROW EXECUTE FUNCTION vetted.notes_stamp();

-- A retry's actor: the login that used it. A released retry (a tombstone) used afresh is a new use, by
-- whoever uses it now; any other update keeps who used it.
CREATE FUNCTION vetted.retries_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' OR (OLD.released AND NOT NEW.released) THEN
    NEW.actor := session_user;
  ELSE
    NEW.actor := OLD.actor;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER retries_stamp BEFORE INSERT OR UPDATE ON vetted.retries
  FOR EACH ROW EXECUTE FUNCTION vetted.retries_stamp();

-- Who submitted a draft to the team outbox, and when: set once, by the database.
CREATE FUNCTION vetted.team_outbox_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW.submitted_by := session_user;
    NEW.submitted_at := now();
  ELSE
    NEW.submitted_by := OLD.submitted_by;
    NEW.submitted_at := OLD.submitted_at;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER team_outbox_stamp BEFORE INSERT OR UPDATE ON vetted.team_outbox
  FOR EACH ROW EXECUTE FUNCTION vetted.team_outbox_stamp();
`;
