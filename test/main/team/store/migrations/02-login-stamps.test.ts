// Team store migration 2: who did something is the login, whatever a client names.
import type pg from 'pg';
import { describe, expect, test } from 'vitest';
import { applyMigration, storeAt } from './at-version.ts';

describe('team store migration 2: who did something is the login', () => {
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
