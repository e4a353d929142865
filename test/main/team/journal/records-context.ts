// A migrated team store in a fresh database, and the repositories' context on a pool of it: what every
// test/main/team/journal/records-*.test.ts builds on. Pools are ended after each test.
import crypto from 'node:crypto';
import pg from 'pg';
import { afterEach } from 'vitest';
import { auditSealer } from '#main/data/journal/audit-chain.ts';
import { personalCipher } from '#main/data/journal/personal.ts';
import { type Clock, systemClock } from '#main/data/journal/time.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { poolDb, type TeamRepositoryContext } from '#main/team/journal/team-db.ts';
import { migratedDatabase } from '#test/support/postgres/team-db.ts';

const pools: pg.Pool[] = [];
afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.end();
});

export function openPool(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url });
  pools.push(pool);
  return pool;
}

/** A repositories' context on `url` (the team data key made up for the test unless given). */
export function contextOn(url: string, clock: Clock = systemClock, teamKey = createFieldKey()) {
  const pool = openPool(url);
  const ctx: TeamRepositoryContext = {
    db: poolDb(pool),
    cipher: personalCipher(teamKey),
    sealer: auditSealer(teamKey),
    clock,
  };
  return { pool, ctx };
}

/** An empty, migrated team store; `url` is its administrator's (the cluster's superuser). */
export async function teamStore(clock: Clock = systemClock) {
  const url = await migratedDatabase();
  return { url, teamKey: createFieldKey(), ...contextOn(url, clock) };
}

/**
 * A second login role with a unique name, granted `grants` (SQL after GRANT, e.g. `INSERT ON vetted.x`) and
 * USAGE on the schema and its sequences; returns its name and URL.
 */
export async function loginRole(adminUrl: string, grants: readonly string[]) {
  const name = `reviewer_${crypto.randomBytes(4).toString('hex')}`;
  const password = crypto.randomBytes(12).toString('base64url');
  const admin = openPool(adminUrl);
  await admin.query(`CREATE ROLE ${name} LOGIN PASSWORD '${password}'`);
  await admin.query(`GRANT USAGE ON SCHEMA vetted TO ${name}`);
  await admin.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA vetted TO ${name}`);
  for (const grant of grants) await admin.query(`GRANT ${grant} TO ${name}`);
  const url = new URL(adminUrl);
  url.username = name;
  url.password = password;
  return { name, url: url.toString() };
}

/** A customer row as the team journal's customers would write it (profile sealed or not: not read here). */
export async function insertCustomer(pool: pg.Pool, id: string): Promise<void> {
  await pool.query(
    `INSERT INTO vetted.customers (id, seq, status, section, status_since, created, last_refreshed, changed_at,
       profile)
     VALUES ($1, nextval('vetted.change_seq'), 'retry', 'attention', now(), now(), now(), now(), 'sealed')`,
    [id],
  );
}
