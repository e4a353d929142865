// Each team store migration from 2 on, applied to a store the migration before it left (migrations 1..N-1
// only) with rows in it, and what it promises checked: one `step` each.
import crypto from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, test } from 'vitest';
import { auditSealer, GENESIS_HASH, linkAfter } from '../../main/journal/audit-chain.ts';
import { chainChecker } from '../../main/journal/audit-verify.ts';
import { KEPT_REJECTIONS } from '../../main/journal/rejections.ts';
import { LINKED_COLUMNS, LinkedRowSchema } from '../../main/team/journal/audit.ts';
import { parseRows } from '../../main/team/journal/rows.ts';
import { KEPT_BY_MIGRATION_3 } from '../../main/team/store/migrations/03-rejections-pruned.ts';
import { AUDIT_CHAIN } from '../../main/team/store/migrations/06-audit-chain.ts';
import { TEAM_LATEST_VERSION, TEAM_MIGRATIONS } from '../../main/team/store/migrations/index.ts';
import { applyTeamMigrations, teamSchemaVersion } from '../../main/team/store/migrations/runner.ts';
import { createTeamKey } from '../../main/team/team-key.ts';
import { freshDatabase } from '../support/team-db.ts';

const clients: pg.Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.end();
});

/** Each store's administrator URL, by its client. */
const urls = new WeakMap<pg.Client, string>();

/** A store at schema `version`, as its administrator (the cluster's superuser) sees it. */
async function storeAt(version: number): Promise<pg.Client> {
  const url = await freshDatabase();
  const client = new pg.Client({ connectionString: url });
  urls.set(client, url);
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

/**
 * A login in a group of its own granted, beyond reading every table, what the step's test needs (SQL after
 * GRANT, e.g. `INSERT ON vetted.x`): the grants `team migrate` applies are the latest schema's, which a store
 * at an older version cannot take.
 */
async function reviewerOf(
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

step(3, 'the security log pruned by its retention rule, not by reviewers', () => {
  const KEPT = KEPT_BY_MIGRATION_3;
  /** Version 2 with a full security log and a few more: what a reviewer's DELETE used to prune. */
  async function version2WithRejections(): Promise<pg.Client> {
    const client = await storeAt(2);
    await client.query(
      `INSERT INTO vetted.webhook_rejections (at, remote_address, status, reason)
       SELECT now(), '10.0.0.1', 401, 'signature-missing ' || n FROM generate_series(1, $1) AS n`,
      [KEPT + 5],
    );
    return client;
  }

  test('keeps the local journal’s retention: the newest KEPT_REJECTIONS', () => {
    expect(KEPT).toBe(KEPT_REJECTIONS);
  });

  test('adds a definer function that keeps only the newest entries, and only the administrator owns it', async () => {
    const client = await version2WithRejections();
    await applyMigration(client, 3);

    const { rows } = await client.query<{ definer: boolean; owner: string; me: string }>(
      `SELECT prosecdef AS definer, proowner::regrole::text AS owner, session_user AS me FROM pg_proc
        WHERE oid = 'vetted.prune_webhook_rejections()'::regprocedure`,
    );
    expect(rows).toEqual([{ definer: true, owner: rows[0]?.me, me: rows[0]?.me }]);
    await client.query('SELECT vetted.prune_webhook_rejections()');
    const left = await client.query<{ n: number; oldest: string }>(
      'SELECT count(*)::int AS n, min(reason) FILTER (WHERE seq = (SELECT min(seq) FROM vetted.webhook_rejections)) AS oldest FROM vetted.webhook_rejections',
    );
    expect(left.rows).toEqual([{ n: KEPT, oldest: 'signature-missing 6' }]);
  });

  test('a reviewer granted EXECUTE (and no DELETE, as the grants now are) prunes through it', async () => {
    const client = await version2WithRejections();
    await applyMigration(client, 3);
    const reviewer = await reviewerOf(client, 'dora', [
      'INSERT ON vetted.webhook_rejections',
      'EXECUTE ON FUNCTION vetted.prune_webhook_rejections()',
    ]);

    await expect(reviewer.query('DELETE FROM vetted.webhook_rejections')).rejects.toMatchObject({
      code: '42501',
      message: 'permission denied for table webhook_rejections',
    });
    await reviewer.query('SELECT vetted.prune_webhook_rejections()');
    const { rows } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM vetted.webhook_rejections',
    );
    expect(rows).toEqual([{ n: KEPT }]);
  });
});

step(4, 'what became of a submitted draft is in the audit log, under its submitter', () => {
  const OUTBOX_WRITES = ['INSERT, UPDATE ON vetted.team_outbox', 'INSERT ON vetted.audit_log'];
  /** Version 3 with drafts alice submitted: two waiting, one created before the migration. */
  async function version3WithSubmissions() {
    const client = await storeAt(3);
    const alice = await reviewerOf(client, 'alice', OUTBOX_WRITES);
    await alice.query(
      `INSERT INTO vetted.team_outbox (idempotency_key, draft_id, form)
       SELECT gen_random_uuid(), 'd-' || n, 'sealed' FROM generate_series(1, 4) AS n`,
    );
    await alice.query(
      `UPDATE vetted.team_outbox SET state = 'created', customer_id = 'c-4' WHERE draft_id = 'd-4'`,
    );
    return { client, alice };
  }
  const auditOf = async (client: pg.Client) =>
    (
      await client.query(
        `SELECT actor, action, customer_id, outcome, detail FROM vetted.audit_log ORDER BY seq`,
      )
    ).rows;

  /** What a drainer does in one transaction: record the row's outcome, and write its audit entry. */
  async function recordWithEntry(
    drainer: Awaited<ReturnType<typeof reviewerOf>>,
    draftId: string,
    entry: { actor: string; detail: string },
  ) {
    await drainer.query('BEGIN');
    await drainer.query(
      `UPDATE vetted.team_outbox SET state = 'created', customer_id = 'c-x' WHERE draft_id = $1`,
      [draftId],
    );
    await drainer.query(
      `INSERT INTO vetted.audit_log (at, actor, action, customer_id, outcome, detail)
       VALUES (now(), $1, 'customer.create', 'c-x', 'ok', $2)`,
      [entry.actor, entry.detail],
    );
    await drainer.query('COMMIT');
  }

  test('keeps the submitter as the actor of the entry the drainer writes with the outcome it records', async () => {
    const { client, alice } = await version3WithSubmissions();
    await applyMigration(client, 4);
    const hub = await reviewerOf(client, 'hub', OUTBOX_WRITES);

    await recordWithEntry(hub, 'd-1', { actor: alice.login, detail: `draft d-1, sent by ${hub.login}` });
    expect(await auditOf(client)).toEqual([
      {
        actor: alice.login,
        action: 'customer.create',
        customer_id: 'c-x',
        outcome: 'ok',
        detail: `draft d-1, sent by ${hub.login}`,
      },
    ]);
  });

  test('stamps the login on every other entry: another submitter, another sender, an outcome recorded earlier', async () => {
    const { client, alice } = await version3WithSubmissions();
    await applyMigration(client, 4);
    const hub = await reviewerOf(client, 'hub', OUTBOX_WRITES);
    const admin = (await client.query<{ me: string }>('SELECT session_user AS me')).rows[0]?.me;

    // Not the draft's submitter; not the session that sends; a draft whose outcome an earlier transaction wrote.
    await recordWithEntry(hub, 'd-2', { actor: 'eve', detail: `draft d-2, sent by ${hub.login}` });
    await recordWithEntry(hub, 'd-3', { actor: alice.login, detail: `draft d-3, sent by ${alice.login}` });
    await hub.query(
      `INSERT INTO vetted.audit_log (at, actor, action, outcome, detail)
       VALUES (now(), $1, 'customer.create', 'ok', $2)`,
      [alice.login, `draft d-4, sent by ${hub.login}`],
    );
    await alice.query(
      `INSERT INTO vetted.audit_log (at, actor, action, outcome) VALUES (now(), 'eve', 'note.add', 'ok')`,
    );
    // Acting as the group changes current_user, not the login: still stamped.
    await alice.query(`SET ROLE ${alice.group}`);
    await alice.query(
      `INSERT INTO vetted.audit_log (at, actor, action, outcome) VALUES (now(), 'eve', 'note.add', 'ok')`,
    );
    await client.query(
      `INSERT INTO vetted.audit_log (at, actor, action, outcome) VALUES (now(), 'eve', 'status.read', 'ok')`,
    );
    expect((await auditOf(client)).map((row) => row.actor)).toEqual([
      hub.login,
      hub.login,
      hub.login,
      alice.login,
      alice.login,
      admin,
    ]);
  });

  test('finds the draft that created a customer by that customer, through an index; names who recorded it', async () => {
    const { client } = await version3WithSubmissions();
    await applyMigration(client, 4);
    await client.query('SET enable_seqscan = off');
    const plan = await client.query(
      `EXPLAIN SELECT draft_id FROM vetted.team_outbox WHERE customer_id = 'c-4' AND state = 'created'`,
    );
    expect(JSON.stringify(plan.rows)).toContain('team_outbox_by_customer');
    // And who recorded a row created: empty for what came before.
    const { rows } = await client.query(
      `SELECT draft_id, recorded_by FROM vetted.team_outbox WHERE state = 'created' ORDER BY draft_id`,
    );
    expect(rows).toEqual([{ draft_id: 'd-4', recorded_by: null }]);
  });
});

step(5, "the webhook subscriptions' secrets, sealed, for every hub", () => {
  test('adds the table, leaves the rows before it as they were, and stamps who keeps a secret', async () => {
    const client = await storeAt(4);
    await client.query(`INSERT INTO vetted.events (id, topic, resource_id, created, received_at, signature_verified)
      VALUES ('e-1', 'customer_created', 'c-1', now(), now(), true)`);
    await applyMigration(client, 5);

    expect((await client.query('SELECT id FROM vetted.events')).rows).toEqual([{ id: 'e-1' }]);
    await client.query(
      `INSERT INTO vetted.webhook_secrets (subscription_id, secret, created_by) VALUES ('s-1', 'v1.sealed', 'eve')`,
    );
    const { rows } = await client.query(
      'SELECT subscription_id, secret, created_by = session_user AS stamped FROM vetted.webhook_secrets',
    );
    expect(rows).toEqual([{ subscription_id: 's-1', secret: 'v1.sealed', stamped: true }]);
    await expect(
      client.query(`INSERT INTO vetted.webhook_secrets (subscription_id, secret) VALUES ('s-1', 'again')`),
    ).rejects.toMatchObject({ code: '23505' });
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
