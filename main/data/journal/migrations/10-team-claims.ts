// Migration 10 (#28): the desk's copy of the team's claims, who holds which case, for the queue's "Mine",
// "Unclaimed" and "by reviewer" and its "Ana has this". Only team mode's replica writes it (a solo desk holds
// every case and keeps no claims). A released or expired claim is a row with no holder, as in the team store;
// `team_seq` is the change that last wrote the row, so a stale copy never wins. A reassignment's note or a
// take-over's reason is sealed with this desk's data key, as notes are. The work by who holds it (waiting and
// overdue per section, queue-holders.ts) counts the open cases of a section from an index of their own.
import type { Migration } from './runner.ts';

export const TEAM_CLAIMS: Migration = {
  version: 10,
  name: 'team replica: claims',
  sql: `
CREATE TABLE claims (
  customer_id TEXT PRIMARY KEY,
  holder TEXT,
  since TEXT,
  how TEXT NOT NULL,
  changed_by TEXT NOT NULL,
  changed_at TEXT NOT NULL,
  note TEXT,
  team_seq INTEGER NOT NULL,
  CHECK ((holder IS NULL) = (since IS NULL))
) STRICT;
CREATE INDEX claims_by_holder ON claims (holder, customer_id) WHERE holder IS NOT NULL;
CREATE INDEX customers_open_by_section ON customers (section, status_since) WHERE gone_at IS NULL;
`,
};
