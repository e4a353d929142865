// The team's webhook subscription secrets in the team store: what one hub keeps, another loads; sealed, so
// PostgreSQL never holds one in plaintext; a row that does not open with the team key is skipped, in the log.
import pg from 'pg';
import { afterEach, expect, test } from 'vitest';
import { createLogger } from '#main/ground/log/logger.ts';
import { teamKeys } from '#main/team/keys/key-ring.ts';
import { teamSubscriptionSecrets } from '#main/team/subscription-secrets.ts';
import { createTeamKey } from '#main/team/team-key.ts';
import { migratedDatabase } from '#test/support/postgres/team-db.ts';

const pools: pg.Pool[] = [];
afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.end();
});

async function store() {
  const pool = new pg.Pool({ connectionString: await migratedDatabase('secrets'), max: 2 });
  pools.push(pool);
  return pool;
}

function hubSecrets(db: pg.Pool, teamKey: Buffer) {
  const lines: string[] = [];
  const log = createLogger((line) => lines.push(line));
  return { secrets: teamSubscriptionSecrets({ db, fields: teamKeys(teamKey).fields, log }), lines, log };
}

test('a secret one hub keeps, another hub loads; the store holds it sealed; forgotten, it is gone for both', async () => {
  const db = await store();
  const teamKey = createTeamKey();
  const a = hubSecrets(db, teamKey);
  await a.secrets.load();
  await a.secrets.keep('sub-1', 'the-first-secret');
  expect(a.secrets.has('sub-1')).toBe(true);

  const b = hubSecrets(db, teamKey);
  await b.secrets.load();
  expect(b.secrets.all()).toEqual(['the-first-secret']);
  // Loaded secrets are redacted from the hub's log like any other.
  b.log.info('seen', { value: 'the-first-secret' });
  expect(b.lines.join('\n')).not.toContain('the-first-secret');
  const { rows } = await db.query<{ secret: string }>('SELECT secret FROM vetted.webhook_secrets');
  expect(rows).toHaveLength(1);
  expect(rows[0]?.secret).not.toContain('the-first-secret');

  await b.secrets.forget('sub-1');
  await a.secrets.load();
  expect(a.secrets.all()).toEqual([]);
});

test('a row sealed with another key, or for another subscription, is skipped in the log; the rest load', async () => {
  const db = await store();
  const teamKey = createTeamKey();
  const keeper = hubSecrets(db, teamKey);
  await keeper.secrets.keep('sub-good', 'good-secret');
  await hubSecrets(db, createTeamKey()).secrets.keep('sub-foreign', 'foreign-secret');
  await keeper.secrets.keep('sub-moved', 'moved-secret');
  // A token copied onto another subscription's row does not open there.
  await db.query(
    `UPDATE vetted.webhook_secrets SET subscription_id = 'sub-elsewhere' WHERE subscription_id = 'sub-moved'`,
  );

  const loader = hubSecrets(db, teamKey);
  await loader.secrets.load();
  expect(loader.secrets.all()).toEqual(['good-secret']);
  expect(loader.secrets.has('sub-elsewhere')).toBe(false);
  const warnings = loader.lines.filter((line) => line.includes('does not open with the team key'));
  expect(warnings.map((line) => JSON.parse(line).subscriptionId).sort()).toEqual([
    'sub-elsewhere',
    'sub-foreign',
  ]);
});
