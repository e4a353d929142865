// Team store migration 4: what became of a submitted draft is in the audit log, under its submitter.
import type pg from 'pg';
import { describe, expect, test } from 'vitest';
import { applyMigration, reviewerOf, storeAt } from './at-version.ts';

describe('team store migration 4: what became of a submitted draft is in the audit log, under its submitter', () => {
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
