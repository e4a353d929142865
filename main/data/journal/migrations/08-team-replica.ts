// Migration 8: team mode's local replica (../replica.ts). A desk copies the team store's customers, status
// history, notes and retries into its own journal, and must know, for each row, which change of the team
// store it holds: `team_seq` is that change number (null for rows this desk wrote in solo mode). History
// and notes are appended once per change number (a unique index makes a second copy impossible);
// customers and retries are replaced only by a newer change (a released retry stays as a tombstone). `replica_state` holds the last change number
// copied, committed with the rows it covers, so a desk that stops half-way resumes where it was.
import type { Migration } from './runner.ts';

export const TEAM_REPLICA: Migration = {
  version: 8,
  name: 'team replica: change numbers of copied rows, the last change copied',
  sql: `
ALTER TABLE customers ADD COLUMN team_seq INTEGER;
ALTER TABLE status_history ADD COLUMN team_seq INTEGER;
ALTER TABLE notes ADD COLUMN team_seq INTEGER;
ALTER TABLE retries ADD COLUMN team_seq INTEGER;
-- A retry the team released (the service refused its fields) stays as a tombstone, as in the team store: a
-- stale copy of it, still used, must not come back. Solo mode deletes instead and never writes 1.
ALTER TABLE retries ADD COLUMN released INTEGER NOT NULL DEFAULT 0 CHECK (released IN (0, 1));
CREATE UNIQUE INDEX status_history_by_team_seq ON status_history (team_seq) WHERE team_seq IS NOT NULL;
CREATE UNIQUE INDEX notes_by_team_seq ON notes (team_seq) WHERE team_seq IS NOT NULL;

CREATE TABLE replica_state (
  one INTEGER PRIMARY KEY CHECK (one = 1),
  last_seq INTEGER NOT NULL CHECK (last_seq >= 0)
) STRICT;
INSERT INTO replica_state (one, last_seq) VALUES (1, 0);
`,
};
