// A desk's writes as a process of its own, for test/team/lost-connection.test.ts: one write (the case named by
// argv[2]) that the test holds in the team store, ends from another session (pg_terminate_backend), then lets
// go. It prints the failure the write met (as a channel would answer it) and the retry's outcome, and exits
// 0. No process-level guard is installed: an `error` event no one hears, or a rejection no one catches, ends
// this process with a non-zero status, which is what the test looks for.
// Env: STORE_URL (the store's superuser URL), TEAM_KEY (base64url). Case: in-transaction | db-write | unit.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createFieldKey } from '../../main/crypto.ts';
import { openJournal } from '../../main/journal/sqlite.ts';
import { openTeamJournal } from '../../main/team/journal/index.ts';
import { storeFailure } from '../../main/team/journal/store-failures.ts';
import { inTransaction } from '../../main/team/store/sql.ts';
import { teamAppError } from '../../main/team/team-failures.ts';

export const CHILD_APPLICATION_NAME = 'vetted-lost-connection-child';

const [kind = ''] = process.argv.slice(2);
const pool = new pg.Pool({
  connectionString: process.env.STORE_URL,
  application_name: CHILD_APPLICATION_NAME,
  max: 2,
});
// As openTeamPool does: an idle connection dropped is the pool's to replace.
pool.on('error', () => undefined);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vetted-lost-'));
const local = openJournal({ file: path.join(dir, 'journal.db'), dataKey: createFieldKey() });
const journal = await openTeamJournal({
  pool,
  teamKey: Buffer.from(process.env.TEAM_KEY ?? '', 'base64url'),
  local,
});

let notes = 0;
const write: Record<string, () => Promise<unknown>> = {
  // The store's own transaction helper (claims, approvals, the outbox use it), on a table of the test's.
  'in-transaction': () =>
    inTransaction(pool, (client) => client.query('INSERT INTO public.lost_probe VALUES (1)')),
  // A repository's write of its own: poolDb.write.
  'db-write': () => journal.notes.add({ customerId: 'c-1', text: `note ${++notes}` }),
  // A unit of work: the local journal's transaction around the store's (units.ts' onPostgres).
  unit: () => journal.transaction((tx) => tx.notes.add({ customerId: 'c-1', text: `note ${++notes}` })),
};

const run = write[kind];
if (!run) throw new Error(`no such case: ${kind}`);
console.log('ready');
const failure = await run().then(
  () => undefined,
  async (error: unknown) => teamAppError(await storeFailure(pool, error)) ?? { code: String(error) },
);
console.log(`failed: ${JSON.stringify(failure)}`);
await run();
console.log('retried: ok');
await local.close();
await pool.end();
fs.rmSync(dir, { recursive: true, force: true });
