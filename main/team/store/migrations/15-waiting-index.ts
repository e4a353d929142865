// Team store migration 15 (#38): the cases waiting in a section, found by an index.
//
// `claim_next` looks for the unclaimed case of the reviewer's sections that has waited longest, and it looks
// while holding CHANGE_LOCK (every other writer of the team waits meanwhile). Without an index it read every
// customer of the store and sorted the waiting ones: 3–5 ms at 5,000 customers, about 90 ms at 100,000,
// every desk's next case in turn. Settled customers are nearly all of them and never in an ageing section,
// so this index keeps the scan to the waiting ones, already in the order `claim_next` takes them.
import type { TeamMigration } from './runner.ts';

const SQL = `
CREATE INDEX customers_waiting ON vetted.customers (section, status_since, id) WHERE gone_at IS NULL;
`;

export const WAITING_INDEX: TeamMigration = {
  version: 15,
  name: 'the cases waiting in a section, by an index (the next case found without reading every customer)',
  sql: SQL,
};
