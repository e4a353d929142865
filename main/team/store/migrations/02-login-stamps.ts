// Team store migration 2: who did something is the database login, whatever a client sends. Migration 1 had
// `DEFAULT session_user` on these columns, which a client could override by naming the column in its
// INSERT, and table-wide UPDATE grants let a reviewer rewrite them afterwards. Two locks, as on the audit
// log: these triggers stamp the login on INSERT and keep it on UPDATE, and the reviewers' grants (admin/
// grants.ts) leave these columns out of what an UPDATE may set.
import type { TeamMigration } from './runner.ts';

const TEAM_SCHEMA_V2_STAMPS = `
-- stamp_login(column, on_update): on INSERT the column becomes the login; on UPDATE it keeps its value
-- ('keep') or becomes the login of whoever updates ('stamp'). One function for every table: the column is
-- named by the trigger, and jsonb_populate_record sets it by that name.
CREATE FUNCTION vetted.stamp_login() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  login_column text := TG_ARGV[0];
BEGIN
  IF TG_OP = 'INSERT' OR TG_ARGV[1] = 'stamp' THEN
    NEW := jsonb_populate_record(NEW, jsonb_build_object(login_column, session_user));
  ELSE
    NEW := jsonb_populate_record(NEW, jsonb_build_object(login_column, to_jsonb(OLD) -> login_column));
  END IF;
  RETURN NEW;
END $$;

-- A note's author: the login that wrote it (notes take no UPDATE grant).
CREATE TRIGGER notes_stamp BEFORE INSERT ON vetted.notes
  FOR EACH ROW EXECUTE FUNCTION vetted.stamp_login('author');

-- A retry's actor: the login that used it. A released retry (a tombstone) used afresh is a new use, by
-- whoever uses it now; any other update keeps who used it.
CREATE TRIGGER retries_stamp BEFORE INSERT ON vetted.retries
  FOR EACH ROW EXECUTE FUNCTION vetted.stamp_login('actor');
CREATE TRIGGER retries_keep BEFORE UPDATE ON vetted.retries
  FOR EACH ROW WHEN (NOT (OLD.released AND NOT NEW.released))
  EXECUTE FUNCTION vetted.stamp_login('actor', 'keep');
CREATE TRIGGER retries_reuse BEFORE UPDATE ON vetted.retries
  FOR EACH ROW WHEN (OLD.released AND NOT NEW.released)
  EXECUTE FUNCTION vetted.stamp_login('actor', 'stamp');

-- Who submitted a draft to the team outbox: set once, by the database.
CREATE TRIGGER team_outbox_stamp BEFORE INSERT OR UPDATE ON vetted.team_outbox
  FOR EACH ROW EXECUTE FUNCTION vetted.stamp_login('submitted_by', 'keep');
`;

export const LOGIN_STAMPS: TeamMigration = {
  version: 2,
  name: 'authors, retry users and submitters stamped from the login',
  sql: TEAM_SCHEMA_V2_STAMPS,
};
