import pg from 'pg';
import { afterEach, expect, test } from 'vitest';
import { checkTeamSchema, migrateTeamStore, TEAM_LATEST_VERSION } from '#main/team/store/migrations/index.ts';
import { TeamSchemaError } from '#main/team/store/migrations/runner.ts';
import { freshDatabase } from '#test/support/postgres/team-db.ts';
import { insertAuditRow } from '#test/support/team/audit-rows.ts';

const clients: pg.Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.end();
});

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  clients.push(client);
  return client;
}

test('an empty database is not a team store until migrated; migrating twice is a no-op', async () => {
  const client = await connect(await freshDatabase());
  await expect(checkTeamSchema(client)).rejects.toThrow(/not a Vetted team store/);
  expect(await migrateTeamStore(client)).toEqual({ from: 0, to: TEAM_LATEST_VERSION });
  expect(await migrateTeamStore(client)).toEqual({ from: TEAM_LATEST_VERSION, to: TEAM_LATEST_VERSION });
  await expect(checkTeamSchema(client)).resolves.toBeUndefined();
});

test('two administrators migrating at once: each migration is applied once, by one of them', async () => {
  const url = await freshDatabase();
  const [a, b] = await Promise.all([connect(url), connect(url)]);
  // A migration applied twice would fail (its tables exist): both finishing is each applied once.
  const results = await Promise.all([migrateTeamStore(a), migrateTeamStore(b)]);
  expect(Math.min(...results.map((r) => r.from))).toBe(0);
  expect(results.map((r) => r.to)).toEqual([TEAM_LATEST_VERSION, TEAM_LATEST_VERSION]);
  await expect(checkTeamSchema(a)).resolves.toBeUndefined();
  expect(await migrateTeamStore(b)).toEqual({ from: TEAM_LATEST_VERSION, to: TEAM_LATEST_VERSION });
});

test('a store newer than this Vetted is refused in words', async () => {
  const client = await connect(await freshDatabase());
  await migrateTeamStore(client);
  await client.query('UPDATE vetted.schema_version SET version = 99');
  await expect(checkTeamSchema(client)).rejects.toThrow(TeamSchemaError);
  await expect(checkTeamSchema(client)).rejects.toThrow(/newer than this Vetted.*update Vetted/);
  await expect(migrateTeamStore(client)).rejects.toThrow(/newer than this Vetted/);
});

test('the audit log is append-only and stamps the login, even for its owner', async () => {
  const client = await connect(await freshDatabase());
  await migrateTeamStore(client);
  await insertAuditRow(client, { action: 'note.add', claimedActor: 'someone-else' });
  const { rows } = await client.query<{ actor: string }>('SELECT actor FROM vetted.audit_log');
  expect(rows).toEqual([{ actor: 'postgres' }]);
  await expect(client.query(`UPDATE vetted.audit_log SET outcome = 'x'`)).rejects.toThrow(/append-only/);
  await expect(client.query('DELETE FROM vetted.audit_log')).rejects.toThrow(/append-only/);
  await expect(client.query('TRUNCATE vetted.audit_log')).rejects.toThrow(/append-only/);
});
