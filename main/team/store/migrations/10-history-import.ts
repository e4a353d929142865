// Team store migration 10 (#30): a desk that joins brings its solo history (notes, audit entries, customers)
// into the team, each item exactly once. `brought_from_desks` keys every item by where it came from (the
// desk's journal, the kind, its number there); a desk inserts that key with ON CONFLICT DO NOTHING in the
// same transaction as the item, so a join repeated or killed half-way brings nothing twice. Who brought it
// is the login, stamped as everywhere else. A brought note keeps the time it was written on the desk and
// names the desk it came from. (Numbers 8 and 9 are other changes' of the same wave.)
import type { TeamMigration } from './runner.ts';

export const HISTORY_IMPORT: TeamMigration = {
  version: 10,
  name: 'history brought from desks, once each',
  sql: `
CREATE TABLE vetted.brought_from_desks (
  desk text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('note', 'audit', 'customer')),
  local_id text NOT NULL,
  brought_by text NOT NULL DEFAULT session_user,
  brought_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (desk, kind, local_id)
);
CREATE TRIGGER brought_from_desks_stamp BEFORE INSERT ON vetted.brought_from_desks
  FOR EACH ROW EXECUTE FUNCTION vetted.stamp_login('brought_by');

ALTER TABLE vetted.notes ADD COLUMN brought_from text;
`,
};
