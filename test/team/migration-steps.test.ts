// Each team store migration from 2 on, applied to a store the migration before it left (migrations 1..N-1
// only) with rows in it, and what it promises checked: one `step` each.
import pg from 'pg';
import { afterEach, describe, expect, test } from 'vitest';
import { auditSealer, GENESIS_HASH, linkAfter } from '../../main/journal/audit-chain.ts';
import { chainChecker } from '../../main/journal/audit-verify.ts';
import { LINKED_COLUMNS, LinkedRowSchema } from '../../main/team/journal/audit.ts';
import { parseRows } from '../../main/team/journal/rows.ts';
import { AUDIT_CHAIN } from '../../main/team/store/migrations/06-audit-chain.ts';
import { TEAM_LATEST_VERSION, TEAM_MIGRATIONS } from '../../main/team/store/migrations/index.ts';
import { applyTeamMigrations, teamSchemaVersion } from '../../main/team/store/migrations/runner.ts';
import { createTeamKey } from '../../main/team/team-key.ts';
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

step(AUDIT_CHAIN.version, 'the audit log as a sealed hash chain', () => {
  const before = AUDIT_CHAIN.version - 1;

  /** The version before's audit log as desks wrote it: a gap where an insert rolled back, a time in µs. */
  async function withEntries(): Promise<pg.Client> {
    const client = await storeAt(before);
    await client.query(`
      INSERT INTO vetted.audit_log (seq, at, action, customer_id, outcome, detail) VALUES
        (1, '2026-01-01T10:00:00.123456Z', 'customer.create', 'c-1', 'ok', 'draft d-1'),
        (2, '2026-01-01T11:00:00.000Z', 'note.add', 'c-1', 'ok', NULL),
        (4, '2026-01-02T09:30:00.500Z', 'personal.reveal', 'c-1', 'ok', 'Reason: a call');
    `);
    return client;
  }
  const linkedRows = async (client: pg.Client) =>
    parseRows(
      LinkedRowSchema,
      'audit_log',
      (await client.query(`SELECT ${LINKED_COLUMNS} FROM vetted.audit_log ORDER BY seq`)).rows,
    );
  const headOf = async (client: pg.Client) => {
    const { rows } = await client.query<{ seq: string; chain_hash: string }>(
      'SELECT seq, chain_hash FROM vetted.audit_head',
    );
    return { seq: Number(rows[0]!.seq), chainHash: rows[0]!.chain_hash };
  };
  async function verdict(client: pg.Client, teamKey: Buffer) {
    const checker = chainChecker({ sealer: auditSealer(teamKey), whole: true });
    for (const entry of await linkedRows(client)) checker.add(entry);
    return checker.finish(await headOf(client));
  }

  test('chains the entries there were, in seq order, sealed with the team key; an entry records it', async () => {
    const client = await withEntries();
    const teamKey = createTeamKey();
    expect(
      await applyTeamMigrations(client, TEAM_MIGRATIONS.slice(0, AUDIT_CHAIN.version), { teamKey }),
    ).toEqual({ from: before, to: AUDIT_CHAIN.version });

    const entries = await linkedRows(client);
    const me = (await client.query<{ me: string }>('SELECT session_user AS me')).rows[0]!.me;
    expect(entries.map(({ seq, at, actor, action }) => ({ seq, at, actor, action }))).toEqual([
      // Times are kept to the millisecond, as desks write them: the hash covers exactly what is stored.
      { seq: 1, at: '2026-01-01T10:00:00.123Z', actor: me, action: 'customer.create' },
      { seq: 2, at: '2026-01-01T11:00:00.000Z', actor: me, action: 'note.add' },
      { seq: 4, at: '2026-01-02T09:30:00.500Z', actor: me, action: 'personal.reveal' },
      { seq: 5, at: expect.any(String), actor: me, action: 'audit.chain' },
    ]);
    expect(entries[3]!.detail).toBe(
      'The audit chain begins: the 3 entries before this one were chained as they stood.',
    );
    expect(await headOf(client)).toEqual({ seq: 5, chainHash: entries[3]!.link.chainHash });
    expect(await verdict(client, teamKey)).toMatchObject({ entries: 4, sealed: true });
    await expect(verdict(client, createTeamKey())).rejects.toThrow(/does not carry the audit key's seal/);
  });

  test('refuses, in words, to chain entries without the team key, and leaves the store as it was', async () => {
    const client = await withEntries();
    await expect(applyTeamMigrations(client, TEAM_MIGRATIONS.slice(0, AUDIT_CHAIN.version))).rejects.toThrow(
      /failed and was rolled back\. It chains and seals the audit entries .* --key-file FILE/,
    );
    expect(await teamSchemaVersion(client)).toBe(before);
    const { rows } = await client.query(`SELECT count(*)::int AS n FROM information_schema.columns
      WHERE table_schema = 'vetted' AND table_name = 'audit_log' AND column_name = 'seal'`);
    expect(rows).toEqual([{ n: 0 }]);
  });

  test('starts an empty log at the zero hash, with no entry and no key needed', async () => {
    const client = await storeAt(before);
    await applyMigration(client, AUDIT_CHAIN.version);
    expect(await headOf(client)).toEqual({ seq: 0, chainHash: GENESIS_HASH });
    expect((await client.query('SELECT * FROM vetted.audit_log')).rows).toEqual([]);
  });

  test('keeps the log append-only, and lets an entry in only after the head, its chain hash right', async () => {
    const client = await withEntries();
    const teamKey = createTeamKey();
    await applyTeamMigrations(client, TEAM_MIGRATIONS.slice(0, AUDIT_CHAIN.version), { teamKey });
    await expect(client.query(`UPDATE vetted.audit_log SET outcome = 'x'`)).rejects.toThrow(/append-only/);
    await expect(client.query('DELETE FROM vetted.audit_log')).rejects.toThrow(/append-only/);

    const head = await headOf(client);
    const entry = {
      seq: head.seq + 1,
      at: new Date().toISOString(),
      actor: 'x',
      action: 'a',
      customerId: null,
      outcome: 'ok',
      detail: null,
    };
    const link = linkAfter(head.chainHash, entry, auditSealer(teamKey));
    const insert = (seq: number, prev: string, chain = link.chainHash) =>
      client.query(
        `INSERT INTO vetted.audit_log (seq, at, action, outcome, hash_version, prev_hash, content_hash, chain_hash, seal)
         VALUES ($1, now(), 'a', 'ok', 1, $2, $3, $4, $5)`,
        [seq, prev, link.contentHash, chain, link.seal],
      );
    await expect(insert(head.seq, head.chainHash)).rejects.toThrow(/must follow the chain's head, entry 5/);
    await expect(insert(head.seq + 1, GENESIS_HASH)).rejects.toThrow(/must follow the chain's head/);
    await expect(insert(head.seq + 1, head.chainHash, GENESIS_HASH)).rejects.toThrow(/chain hash is SHA-256/);
    await expect(
      client.query(`INSERT INTO vetted.audit_log (at, action, outcome) VALUES (now(), 'a', 'ok')`),
    ).rejects.toThrow(/must follow the chain's head/);
    await insert(head.seq + 1, head.chainHash);
    expect(await headOf(client)).toEqual({ seq: head.seq + 1, chainHash: link.chainHash });
  });
});
