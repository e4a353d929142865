// Each team store migration's test (NN-name.test.ts here, named as its file) builds a store as the migration
// before it left it (migrations 1..N-1 only), puts rows in it, applies migration N alone and checks what N
// promises. These are the helpers they share.
import crypto from 'node:crypto';
import pg from 'pg';
import { afterEach, expect } from 'vitest';
import { TEAM_MIGRATIONS } from '#main/team/store/migrations/index.ts';
import { applyTeamMigrations, teamSchemaVersion } from '#main/team/store/migrations/runner.ts';
import { freshDatabase } from '#test/support/postgres/team-db.ts';

const clients: pg.Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.end();
});

/** Each store's administrator URL, by its client. */
const urls = new WeakMap<pg.Client, string>();

/** A store at schema `version`, as its administrator (the cluster's superuser) sees it. */
export async function storeAt(version: number): Promise<pg.Client> {
  const url = await freshDatabase();
  const client = new pg.Client({ connectionString: url });
  urls.set(client, url);
  await client.connect();
  clients.push(client);
  await applyTeamMigrations(
    client,
    TEAM_MIGRATIONS.filter((m) => m.version <= version),
  );
  expect(await teamSchemaVersion(client)).toBe(version);
  return client;
}

/** The migration before `version` in the list (numbers reserved for other changes may be missing). */
export const versionBefore = (version: number): number =>
  TEAM_MIGRATIONS.filter((m) => m.version < version).at(-1)?.version ?? 0;

export async function applyMigration(client: pg.Client, version: number): Promise<void> {
  expect(
    await applyTeamMigrations(
      client,
      TEAM_MIGRATIONS.filter((m) => m.version <= version),
    ),
  ).toEqual({
    from: versionBefore(version),
    to: version,
  });
}

/**
 * A login in a group of its own granted, beyond reading every table, what the step's test needs (SQL after
 * GRANT, e.g. `INSERT ON vetted.x`): the grants `team migrate` applies are the latest schema's, which a store
 * at an older version cannot take.
 */
export async function reviewerOf(
  client: pg.Client,
  name: string,
  grants: readonly string[],
): Promise<pg.Client & { login: string; group: string }> {
  const suffix = crypto.randomBytes(4).toString('hex');
  const group = `steps_reviewers_${suffix}`;
  const login = `steps_${name}_${suffix}`;
  const password = crypto.randomBytes(12).toString('base64url');
  await client.query(`CREATE ROLE ${group} NOLOGIN`);
  await client.query(`CREATE ROLE ${login} LOGIN PASSWORD '${password}' IN ROLE ${group}`);
  await client.query(`GRANT USAGE ON SCHEMA vetted TO ${group}`);
  await client.query(`GRANT SELECT ON ALL TABLES IN SCHEMA vetted TO ${group}`);
  await client.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA vetted TO ${group}`);
  for (const grant of grants) await client.query(`GRANT ${grant} TO ${group}`);
  const url = new URL(urls.get(client) ?? '');
  url.username = login;
  url.password = password;
  const reviewer = Object.assign(new pg.Client({ connectionString: url.toString() }), { login, group });
  await reviewer.connect();
  clients.push(reviewer);
  return reviewer;
}
