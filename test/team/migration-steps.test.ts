// Each team store migration from 2 on, applied to a store the migration before it left (migrations 1..N-1
// only) with rows in it, and what it promises checked: one `step` each.
import pg from 'pg';
import { afterEach, describe, expect, test } from 'vitest';
import { CLAIMS_ROLES } from '../../main/team/store/migrations/05-claims-roles.ts';
import { TEAM_LATEST_VERSION, TEAM_MIGRATIONS } from '../../main/team/store/migrations/index.ts';
import { applyTeamMigrations, teamSchemaVersion } from '../../main/team/store/migrations/runner.ts';
import { freshDatabase } from '../support/team-db.ts';

const clients: pg.Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.end();
});

/** A store at schema `version`, as its administrator (the cluster's superuser) sees it. */
async function storeAt(version: number): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: await freshDatabase() });
  await client.connect();
  clients.push(client);
  await applyTeamMigrations(client, TEAM_MIGRATIONS.slice(0, version));
  expect(await teamSchemaVersion(client)).toBe(version);
  return client;
}

async function applyMigration(client: pg.Client, version: number): Promise<void> {
  expect(await applyTeamMigrations(client, TEAM_MIGRATIONS.slice(0, version))).toEqual({
    from: version - 1,
    to: version,
  });
}

const stepped: number[] = [];
function step(version: number, name: string, tests: () => void): void {
  stepped.push(version);
  describe(`team store migration ${version}: ${name}`, tests);
}

test('every migration from 2 on has its step', () => {
  expect(stepped).toEqual(Array.from({ length: TEAM_LATEST_VERSION - 1 }, (_, i) => i + 2));
});

step(2, 'who did something is the login', () => {
  /** Version 1's rows, each naming someone else than the login that wrote it (version 1 let a client). */
  async function version1WithRows(): Promise<pg.Client> {
    const client = await storeAt(1);
    await client.query(`
      INSERT INTO vetted.customers (id, seq, status, section, status_since, created, last_refreshed, changed_at, profile)
      VALUES ('c-1', 1, 'retry', 'retry', now(), now(), now(), now(), 'sealed'),
             ('c-2', 2, 'retry', 'retry', now(), now(), now(), now(), 'sealed');
      INSERT INTO vetted.notes (seq, customer_id, at, author, body) VALUES (3, 'c-1', now(), 'dora', 'sealed');
      INSERT INTO vetted.retries (customer_id, seq, used_at, actor) VALUES ('c-1', 4, now(), 'dora');
      INSERT INTO vetted.retries (customer_id, seq, used_at, actor, released) VALUES ('c-2', 5, now(), 'dora', true);
      INSERT INTO vetted.team_outbox (idempotency_key, draft_id, form, submitted_by)
      VALUES (gen_random_uuid(), 'd-1', 'sealed', 'dora');
    `);
    return client;
  }
  const login = async (client: pg.Client) =>
    (await client.query<{ login: string }>('SELECT session_user AS login')).rows[0]?.login;
  const rowsOf = async (client: pg.Client, sql: string) => (await client.query(sql)).rows;

  test('adds the stamping function and its triggers on notes, retries and the team outbox', async () => {
    const client = await version1WithRows();
    await applyMigration(client, 2);

    const { rows } = await client.query<{ trigger: string; table: string }>(
      `SELECT tgname AS trigger, tgrelid::regclass::text AS table FROM pg_trigger
       WHERE tgfoid = 'vetted.stamp_login()'::regprocedure ORDER BY tgname`,
    );
    expect(rows).toEqual([
      { trigger: 'notes_stamp', table: 'vetted.notes' },
      { trigger: 'retries_keep', table: 'vetted.retries' },
      { trigger: 'retries_reuse', table: 'vetted.retries' },
      { trigger: 'retries_stamp', table: 'vetted.retries' },
      { trigger: 'team_outbox_stamp', table: 'vetted.team_outbox' },
    ]);
  });

  test('leaves who wrote the rows before it as they were, and keeps it through updates', async () => {
    const client = await version1WithRows();
    await applyMigration(client, 2);

    expect(await rowsOf(client, 'SELECT author FROM vetted.notes')).toEqual([{ author: 'dora' }]);
    await client.query(
      `UPDATE vetted.retries SET outcome = 'verified', actor = 'eve' WHERE customer_id = 'c-1'`,
    );
    await client.query(`UPDATE vetted.team_outbox SET state = 'created', submitted_by = 'eve'`);
    expect(
      await rowsOf(client, `SELECT actor, outcome FROM vetted.retries WHERE customer_id = 'c-1'`),
    ).toEqual([{ actor: 'dora', outcome: 'verified' }]);
    expect(await rowsOf(client, 'SELECT submitted_by, state FROM vetted.team_outbox')).toEqual([
      { submitted_by: 'dora', state: 'created' },
    ]);
  });

  test('stamps the login on what is written after it, whatever the client names', async () => {
    const client = await version1WithRows();
    await applyMigration(client, 2);
    const me = await login(client);
    expect(me).not.toBe('eve');

    await client.query(
      `INSERT INTO vetted.notes (seq, customer_id, at, author, body) VALUES (6, 'c-1', now(), 'eve', 's')`,
    );
    await client.query(`INSERT INTO vetted.customers (id, seq, status, section, status_since, created, last_refreshed,
      changed_at, profile) VALUES ('c-3', 7, 'retry', 'retry', now(), now(), now(), now(), 'sealed')`);
    await client.query(
      `INSERT INTO vetted.retries (customer_id, seq, used_at, actor) VALUES ('c-3', 8, now(), 'eve')`,
    );
    await client.query(`INSERT INTO vetted.team_outbox (idempotency_key, draft_id, form, submitted_by)
      VALUES (gen_random_uuid(), 'd-2', 'sealed', 'eve')`);
    expect(await rowsOf(client, 'SELECT author FROM vetted.notes WHERE seq = 6')).toEqual([{ author: me }]);
    expect(await rowsOf(client, `SELECT actor FROM vetted.retries WHERE customer_id = 'c-3'`)).toEqual([
      { actor: me },
    ]);
    expect(
      await rowsOf(client, `SELECT submitted_by FROM vetted.team_outbox WHERE draft_id = 'd-2'`),
    ).toEqual([{ submitted_by: me }]);
  });

  test('makes a released retry used afresh the retry of whoever uses it now', async () => {
    const client = await version1WithRows();
    await applyMigration(client, 2);

    await client.query(
      `UPDATE vetted.retries SET released = false, seq = 9, actor = 'eve' WHERE customer_id = 'c-2'`,
    );
    expect(
      await rowsOf(client, `SELECT actor, released FROM vetted.retries WHERE customer_id = 'c-2'`),
    ).toEqual([{ actor: await login(client), released: false }]);
  });
});

step(CLAIMS_ROLES.version, 'claims, reviewer roles and team settings (#28)', () => {
  /** Version 2's customers and audit rows, as desks left them. */
  async function beforeClaims(): Promise<pg.Client> {
    const client = await storeAt(CLAIMS_ROLES.version - 1);
    await client.query(`
      INSERT INTO vetted.team_meta (team_id, key_check, reviewer_role) VALUES (gen_random_uuid(), 'k', 'nobody_reviewers');
      INSERT INTO vetted.customers (id, seq, status, section, status_since, created, last_refreshed, changed_at, profile)
      VALUES ('c-1', 1, 'retry', 'retry', now(), now(), now(), now(), 'sealed');
      INSERT INTO vetted.audit_log (at, action, customer_id, outcome) VALUES (now(), 'note.add', 'c-1', 'ok');
    `);
    return client;
  }

  test('adds claims (none held), roles (everyone a reviewer) and the idle setting (30 min), keeping the rows', async () => {
    const client = await beforeClaims();
    await applyMigration(client, CLAIMS_ROLES.version);
    expect((await client.query('SELECT * FROM vetted.claims')).rows).toEqual([]);
    expect((await client.query('SELECT * FROM vetted.reviewer_roles')).rows).toEqual([]);
    expect((await client.query('SELECT name, value FROM vetted.team_settings')).rows).toEqual([
      { name: 'claim_idle_minutes', value: 30 },
    ]);
    expect((await client.query('SELECT action FROM vetted.audit_log')).rows).toEqual([
      { action: 'note.add' },
    ]);
    expect((await client.query(`SELECT vetted.role_of('someone_else') AS role`)).rows).toEqual([
      { role: 'reviewer' },
    ]);
  });

  test('lets the existing customers be claimed, and the administrator do what a lead does', async () => {
    const client = await beforeClaims();
    await applyMigration(client, CLAIMS_ROLES.version);
    expect((await client.query('SELECT vetted.role_of(session_user) AS role')).rows).toEqual([
      { role: 'administrator' },
    ]);
    const { rows } = await client.query(`SELECT outcome FROM vetted.claim_take('c-1')`);
    expect(rows).toEqual([{ outcome: 'taken' }]);
    await client.query(`SELECT vetted.set_team_setting('claim_idle_minutes', '10')`);
    await client.query(
      `INSERT INTO vetted.audit_log (at, action, outcome) VALUES (now(), 'queue.exportNames', 'ok')`,
    );
    const audit = await client.query('SELECT action FROM vetted.audit_log ORDER BY seq');
    expect(audit.rows.map((row) => row.action)).toEqual([
      'note.add',
      'claim.take',
      'team.setting',
      'queue.exportNames',
    ]);
  });

  test('refuses a setting out of its range, and one no migration made', async () => {
    const client = await beforeClaims();
    await applyMigration(client, CLAIMS_ROLES.version);
    await expect(
      client.query(`SELECT vetted.set_team_setting('claim_idle_minutes', '0')`),
    ).rejects.toMatchObject({
      code: '23514',
    });
    await expect(
      client.query(`SELECT vetted.set_team_setting('claim_idle_minutes', '2.5')`),
    ).rejects.toMatchObject({ code: '23514' });
    await expect(client.query(`SELECT vetted.set_team_setting('colour', '"red"')`)).rejects.toMatchObject({
      code: '22023',
    });
  });
});
