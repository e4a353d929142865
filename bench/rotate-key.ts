/**
 * What rotating the team key costs at 100,000 customers (#30), on a throwaway PostgreSQL cluster, through the
 * real code path (`rotateTeamKey`, the command's own function):
 * - re-wrap only (`rotate-key`): a new team key, every wrapped key re-wrapped, a new data key: ≤ 1 s, whatever
 *   the number of rows (it touches keys, not rows);
 * - with `--reseal`: every sealed value (each customer's profile and personal data, and a note each) opened
 *   and sealed again, in batches of 500 rows per transaction. Its total is reported (no goal: it runs while the
 *   desks work); the longest batch transaction is what a desk may wait behind on one row: ≤ 1 s.
 * Afterwards it checks that no value is left under a retired key. Last line: `RESULT {...}`.
 *
 *   node bench/rotate-key.ts [--customers 100000] [--batch 500]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { runTeamCli } from '#admin/cli.ts';
import { rotateTeamKey } from '#admin/rotate-key.ts';
import { notePlace } from '#main/data/journal/notes.ts';
import { sealPersonal } from '#main/team/journal/customer-row.ts';
import { loadTeamKeys } from '#main/team/keys/key-ring.ts';
import { staleValues } from '#main/team/keys/reseal.ts';
import { decodeTeamKey } from '#main/team/team-key.ts';
import { startPgCluster } from '#test/support/postgres/pg-cluster.ts';
import { loadNote } from './support/machine.ts';
import { atMost, printResult, quantile, type ResultRow } from './support/protocol.ts';

const { values } = parseArgs({
  options: { customers: { type: 'string', default: '100000' }, batch: { type: 'string', default: '500' } },
});
const CUSTOMERS = Number(values.customers);
const BATCH = Number(values.batch);
const PERSONAL = {
  address: { address1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701' },
  dateOfBirth: '1990-01-01',
  ssnLastFour: '1234',
};

/** `customers` rows as desks write them (profile and personal data sealed, a note each), 5,000 per insert. */
async function seed(db: pg.Client, teamKey: Buffer, customers: number): Promise<void> {
  const { cipher } = await loadTeamKeys(db, teamKey);
  for (let from = 0; from < customers; from += 5_000) {
    const ids: string[] = [];
    const profiles: string[] = [];
    const personals: string[] = [];
    const bodies: string[] = [];
    for (let i = from; i < Math.min(customers, from + 5_000); i++) {
      const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      ids.push(id);
      const profile = {
        url: `/customers/${id}`,
        name: `Customer ${i}`,
        email: `c${i}@example.com`,
        type: 'personal',
      };
      profiles.push(cipher.seal({ table: 'customers', id, column: 'profile' }, JSON.stringify(profile)));
      personals.push(sealPersonal(cipher, id, PERSONAL));
      bodies.push(cipher.seal(notePlace(i + 1), `note on customer ${i}`));
    }
    await db.query(
      `INSERT INTO vetted.customers (id, seq, status, section, status_since, created, last_refreshed, changed_at,
         profile, personal)
       SELECT id, n, 'retry', 'retry', now(), now(), now(), now(), profile, personal
         FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS v(id, profile, personal, n)`,
      [ids, profiles, personals],
    );
    await db.query(
      `INSERT INTO vetted.notes (seq, customer_id, at, body)
       SELECT $3::bigint + n, id, now(), body FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS v(id, body, n)`,
      [ids, bodies, from],
    );
  }
}

const say = (line: string) => process.stdout.write(`${line}\n`);

const cluster = await startPgCluster();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vetted-bench-rotate-'));
try {
  const url = await cluster.createDatabase('rotate');
  const keyFile = path.join(dir, 'team.key');
  const quiet = { out: () => undefined, err: (text: string) => process.stderr.write(text) };
  if ((await runTeamCli(['init', '--database', url, '--key-file', keyFile], quiet)) !== 0) {
    throw new Error('team init failed');
  }
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const readKey = () => decodeTeamKey(fs.readFileSync(keyFile, 'utf8'));
  const seeding = performance.now();
  await seed(db, readKey(), CUSTOMERS);
  await db.query('VACUUM ANALYZE');
  say(`seeded ${CUSTOMERS} customers and notes in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);

  const startRewrap = performance.now();
  const rewrap = await rotateTeamKey(db, { keyFile });
  const rewrapMs = performance.now() - startRewrap;
  const rewrapLoad = loadNote();
  say(`re-wrap only: ${rewrapMs.toFixed(0)} ms (${rewrap.rewrapped} keys) (${rewrapLoad})`);

  const batches: number[] = [];
  let last = performance.now();
  const startReseal = performance.now();
  const resealed = await rotateTeamKey(db, {
    keyFile,
    reseal: true,
    batch: BATCH,
    onBatch: () => {
      const now = performance.now();
      batches.push(now - last);
      last = now;
    },
  });
  const resealMs = performance.now() - startReseal;
  const resealLoad = loadNote();
  const current = (await db.query(`SELECT key_id FROM vetted.team_keys WHERE current`)).rows[0].key_id;
  const stale = await staleValues(db, current);
  const values = resealed.resealed?.values ?? 0;
  say(
    `rotate-key --reseal: ${(resealMs / 1000).toFixed(1)} s for ${values} values (${Math.round(values / (resealMs / 1000))}/s), ` +
      `${batches.length} batches: p50 ${quantile(batches, 0.5).toFixed(0)} ms, max ${Math.max(...batches).toFixed(0)} ms; ` +
      `${stale} values left under an old key (${resealLoad})`,
  );
  await db.end();
  if (stale !== 0) throw new Error(`${stale} values are still sealed under a retired key`);

  const rows: ResultRow[] = [
    atMost(
      `rotate-key, re-wrap only, ${CUSTOMERS.toLocaleString('en')} customers`,
      rewrapMs / 1000,
      1,
      ' s',
      `${(rewrapMs / 1000).toFixed(3)} s (${rewrap.rewrapped} wrapped keys) (${rewrapLoad})`,
    ),
    {
      figure: `rotate-key --reseal, ${CUSTOMERS.toLocaleString('en')} customers (a reference, no goal)`,
      goal: '—',
      measured: `${(resealMs / 1000).toFixed(1)} s, ${values.toLocaleString('en')} values (${Math.round(values / (resealMs / 1000))}/s) (${resealLoad})`,
      ratio: null,
      verdict: 'pass',
    },
    atMost(
      `rotate-key --reseal: longest batch transaction (${BATCH} rows)`,
      Math.max(...batches) / 1000,
      1,
      ' s',
      `${Math.max(...batches).toFixed(0)} ms (p50 ${quantile(batches, 0.5).toFixed(0)} ms over ${batches.length}) (${resealLoad})`,
    ),
  ];
  printResult(rows);
} finally {
  await cluster.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
