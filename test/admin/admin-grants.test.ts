import type pg from 'pg';
import { beforeAll, expect, test } from 'vitest';
import { REVIEWER_FUNCTIONS } from '#admin/grants.ts';
import {
  addTestReviewer,
  initTeamStore,
  reviewerPool,
  type TestReviewer,
} from '../support/team/admin-support.ts';
import { insertAuditRow } from '../support/team/audit-rows.ts';

let reviewer: TestReviewer;
beforeAll(async () => {
  reviewer = await addTestReviewer(await initTeamStore(), 'dora');
});

async function as(): Promise<pg.Pool> {
  return reviewerPool(reviewer);
}

const PERMISSION_DENIED = { code: '42501' };
/** The grants' refusal, not the trigger's (which also answers 42501): the first lock holds on its own. */
const NO_GRANT = { code: '42501', message: 'permission denied for table audit_log' };

test('a reviewer inserts audit rows, stamped with their own login whatever they claim', async () => {
  const db = await as();
  const { actor } = await insertAuditRow(db, { action: 'status.read', claimedActor: 'postgres' });
  expect(actor).toBe(reviewer.name);
});

test('a reviewer can never update, delete or truncate the audit log (permission denied)', async () => {
  const db = await as();
  await insertAuditRow(db, { action: 'note.add' });
  await expect(db.query(`UPDATE vetted.audit_log SET outcome = 'forged'`)).rejects.toMatchObject(NO_GRANT);
  await expect(db.query('DELETE FROM vetted.audit_log')).rejects.toMatchObject(NO_GRANT);
  await expect(db.query('TRUNCATE vetted.audit_log')).rejects.toMatchObject(NO_GRANT);
});

test('a reviewer locks the audit chain’s head through its function only, and can never write the head', async () => {
  const db = await as();
  const { rows } = await db.query<{ actor: string }>('SELECT actor FROM vetted.audit_chain_head()');
  expect(rows).toEqual([{ actor: reviewer.name }]);
  const NO_HEAD_GRANT = { code: '42501', message: 'permission denied for table audit_head' };
  await expect(db.query('UPDATE vetted.audit_head SET seq = 0')).rejects.toMatchObject(NO_HEAD_GRANT);
  await expect(db.query('DELETE FROM vetted.audit_head')).rejects.toMatchObject(NO_HEAD_GRANT);
  // FOR UPDATE needs an UPDATE grant: the lock is the function's to take.
  await expect(db.query('SELECT seq FROM vetted.audit_head FOR UPDATE')).rejects.toMatchObject(NO_HEAD_GRANT);
  await expect(db.query('SELECT vetted.audit_log_link()')).rejects.toMatchObject(PERMISSION_DENIED);
});

test('a reviewer cannot delete customers, retries or notes, edit notes, change the schema, or write the team meta', async () => {
  const db = await as();
  await expect(db.query('DELETE FROM vetted.customers')).rejects.toMatchObject(PERMISSION_DENIED);
  await expect(db.query('CREATE TABLE vetted.mine (x int)')).rejects.toMatchObject(PERMISSION_DENIED);
  await expect(db.query('CREATE TABLE public.mine (x int)')).rejects.toMatchObject(PERMISSION_DENIED);
  await expect(db.query('ALTER TABLE vetted.customers ADD COLUMN x int')).rejects.toMatchObject({
    code: '42501',
  });
  await expect(db.query(`UPDATE vetted.team_meta SET key_check = 'x'`)).rejects.toMatchObject(
    PERMISSION_DENIED,
  );
  await expect(db.query('UPDATE vetted.schema_version SET version = 9')).rejects.toMatchObject(
    PERMISSION_DENIED,
  );
  await expect(db.query('DELETE FROM vetted.team_outbox')).rejects.toMatchObject(PERMISSION_DENIED);
  await expect(db.query('DELETE FROM vetted.retries')).rejects.toMatchObject(PERMISSION_DENIED);
  await expect(db.query('DELETE FROM vetted.notes')).rejects.toMatchObject(PERMISSION_DENIED);
  // Rewriting a note could forge its author.
  await expect(db.query(`UPDATE vetted.notes SET author = 'someone'`)).rejects.toMatchObject(
    PERMISSION_DENIED,
  );
  const { rows } = await db.query('SELECT reviewer_role FROM vetted.team_meta');
  expect(rows).toHaveLength(1);
  // A kept webhook secret is kept or forgotten whole, never rewritten (its seal names the subscription).
  await expect(db.query(`UPDATE vetted.webhook_secrets SET secret = 'x'`)).rejects.toMatchObject(
    PERMISSION_DENIED,
  );
});

test('a reviewer may run exactly the store’s functions grants.ts lists, and none of the others', async () => {
  const db = await as();
  const { rows } = await db.query<{ fn: string; may: boolean }>(
    `SELECT p.oid::regprocedure::text AS fn, has_function_privilege(p.oid, 'EXECUTE') AS may
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'vetted'`,
  );
  const allowed = rows.filter((row) => row.may).map((row) => row.fn);
  expect(allowed.sort()).toEqual(REVIEWER_FUNCTIONS.map((fn) => fn.replaceAll(', ', ',')).sort());
  // The others include every function the claims run as their owner, which skip the role checks.
  expect(rows.map((row) => row.fn)).toEqual(
    expect.arrayContaining(['vetted.hand_over(text,text,text,text)', 'vetted.require_audit_entry()']),
  );
});

test('a reviewer cannot delete from the webhooks’ security log: only the store’s pruning function deletes', async () => {
  const db = await as();
  await db.query(
    `INSERT INTO vetted.webhook_rejections (at, remote_address, status, reason) VALUES (now(), '10.0.0.9', 401, 'x')`,
  );
  await expect(db.query('DELETE FROM vetted.webhook_rejections')).rejects.toMatchObject({
    code: '42501',
    message: 'permission denied for table webhook_rejections',
  });
  await expect(db.query('TRUNCATE vetted.webhook_rejections')).rejects.toMatchObject(PERMISSION_DENIED);
  // The function keeps the newest entries: one row is far from the limit, so it stays.
  await db.query('SELECT vetted.prune_webhook_rejections()');
  const { rows } = await db.query('SELECT count(*)::int AS n FROM vetted.webhook_rejections');
  expect(rows).toEqual([{ n: 1 }]);
});

test('a reviewer does what the desk (or a hub) does: customers, history, change numbers, retries, the outbox, webhook secrets', async () => {
  const db = await as();
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    const seq = Number((await client.query(`SELECT nextval('vetted.change_seq') AS seq`)).rows[0].seq);
    await client.query(
      `INSERT INTO vetted.customers (id, seq, status, section, status_since, created, last_refreshed, changed_at, profile)
       VALUES ('c1', $1, 'pending', 'review', now(), now(), now(), now(), 'sealed')`,
      [seq],
    );
    await client.query(`UPDATE vetted.customers SET status = 'verified' WHERE id = 'c1'`);
    await client.query(
      `INSERT INTO vetted.status_history (seq, customer_id, status, at, source) VALUES ($1, 'c1', 'verified', now(), 'poll')`,
      [seq],
    );
    await client.query(`INSERT INTO vetted.retries (customer_id, seq, used_at) VALUES ('c1', $1, now())`, [
      seq,
    ]);
    await client.query(`UPDATE vetted.retries SET outcome = 'released' WHERE customer_id = 'c1'`);
    await client.query(
      `INSERT INTO vetted.notes (seq, customer_id, at, body) VALUES ($1, 'c1', now(), 'sealed')`,
      [seq + 1],
    );
    await client.query(
      `INSERT INTO vetted.team_outbox (idempotency_key, draft_id, form) VALUES (gen_random_uuid(), 'd1', 'sealed')
       ON CONFLICT DO NOTHING`,
    );
    await client.query(`SELECT * FROM vetted.team_outbox WHERE state = 'queued' FOR UPDATE SKIP LOCKED`);
    await client.query(
      `INSERT INTO vetted.events (id, topic, resource_id, created, received_at, signature_verified)
       VALUES ('e1', 'customer.verified', 'c1', now(), now(), true)
       ON CONFLICT (id) DO UPDATE SET duplicates_seen = vetted.events.duplicates_seen + 1`,
    );
    await client.query(
      `INSERT INTO vetted.webhook_rejections (at, remote_address, status, reason) VALUES (now(), '10.0.0.1', 401, 'bad signature')`,
    );
    await client.query('SELECT vetted.prune_webhook_rejections()');
    // A hub is a reviewer's login: it keeps the secret of a subscription it makes, and forgets it.
    await client.query(
      `INSERT INTO vetted.webhook_secrets (subscription_id, secret) VALUES ('s1', 'sealed')`,
    );
    await client.query(`DELETE FROM vetted.webhook_secrets WHERE subscription_id = 's1'`);
    const notes = await client.query<{ author: string }>('SELECT author FROM vetted.notes');
    expect(notes.rows).toEqual([{ author: reviewer.name }]);
    await client.query('COMMIT');
  } finally {
    client.release();
  }
});
