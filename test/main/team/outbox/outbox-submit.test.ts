import net from 'node:net';
import pg from 'pg';
import { afterEach, expect, test } from 'vitest';
import type { Journal } from '#main/data/journal/index.ts';
import { flushLocal, listTeamOutbox, submitToTeam } from '#main/team/outbox/index.ts';
import { validForm } from '#test/support/desk/drafts.ts';
import { outboxRows, type TeamOutboxRig, teamOutboxRig } from './outbox-rig.ts';

const rigs: TeamOutboxRig[] = [];
afterEach(async () => {
  for (const rig of rigs.splice(0)) await rig.close();
});
async function rig(): Promise<TeamOutboxRig> {
  const made = await teamOutboxRig();
  rigs.push(made);
  return made;
}

const today = new Date('2026-11-23T12:00:00Z');

test('valid drafts move into the team outbox keyed by their local key, sealed; the others stay', async () => {
  const r = await rig();
  const [good1, good2] = await r.drafts(2);
  const [bad] = await r.drafts([validForm({ email: 'not an e-mail' })]);
  const ids = [good1!, good2!, bad!, '00000000-0000-4000-8000-000000000000'];
  const result = await submitToTeam({ local: r.local, pool: r.pool, cipher: r.cipher, ids, today });

  expect(result.queued).toEqual([good1, good2]);
  expect(result.moved).toEqual([good1, good2]);
  expect(result.invalid.map((i) => i.id)).toEqual([bad]);
  expect(result.skipped.map((s) => s.id)).toEqual([ids[3]]);
  // Moved drafts are gone from the desk (their personal data with them); the invalid one stays a draft.
  expect(await r.local.drafts.get(good1!)).toBeUndefined();
  expect((await r.local.drafts.get(bad!))?.state).toBe('draft');

  const rows = await outboxRows(r.pool);
  // One transaction: both rows have the same submitted_at, so their order is not the test's business.
  expect(rows.map((row) => [row.draft_id, row.state, row.attempts]).toSorted()).toEqual(
    [
      [good1, 'queued', 0],
      [good2, 'queued', 0],
    ].toSorted(),
  );
  // PostgreSQL holds the form sealed: no e-mail or name in plaintext anywhere in the row.
  const { rows: raw } = await r.pool.query('SELECT t::text AS text FROM vetted.team_outbox t');
  for (const { text } of raw) expect(text).not.toMatch(/example\.com|Okafor|Baker/);
  const listed = await listTeamOutbox(r.pool, r.cipher);
  expect(listed.map((item) => [item.name, item.state, item.submittedBy])).toEqual([
    ['Ada Okafor', 'queued', 'postgres'],
    ['Ada Okafor', 'queued', 'postgres'],
  ]);
  expect(listed[0]!.email).toMatch(/@example\.com$/);
});

const byDraft = (ids: string[], keys: (string | undefined)[]) =>
  Object.fromEntries(ids.map((id, i) => [id, keys[i]]));
async function keysByDraft(r: TeamOutboxRig): Promise<Record<string, string>> {
  return Object.fromEntries((await outboxRows(r.pool)).map((row) => [row.draft_id, row.idempotency_key]));
}

/** The local journal as it is, except that removing a draft fails: a crash right after the PG commit. */
function crashingOnRemove(local: Journal): Journal {
  return {
    ...local,
    drafts: local.drafts,
    outbox: local.outbox,
    transaction: (work, options) =>
      local.transaction(
        (tx) =>
          work({
            ...tx,
            drafts: {
              ...tx.drafts,
              remove: async () => {
                throw new Error('killed before the local removal');
              },
            },
          }),
        options,
      ),
  } as Journal;
}

test('a crash between the PostgreSQL commit and the local removal: submitting again inserts nothing new', async () => {
  const r = await rig();
  const ids = await r.drafts(3);
  const crashed = await submitToTeam({
    local: crashingOnRemove(r.local),
    pool: r.pool,
    cipher: r.cipher,
    ids,
    today,
  });
  expect(crashed.waiting).toEqual(ids);
  const keys = await Promise.all(ids.map(async (id) => (await r.local.outbox.get(id))?.idempotencyKey));
  // The drafts are still here, queued with their keys; the team outbox already has them under those keys.
  for (const id of ids) expect((await r.local.drafts.get(id))?.state).toBe('queued');
  expect(await keysByDraft(r)).toEqual(byDraft(ids, keys));

  const again = await submitToTeam({ local: r.local, pool: r.pool, cipher: r.cipher, ids, today });
  expect(again.queued).toEqual(ids);
  expect(again.moved).toEqual(ids);
  expect(await keysByDraft(r)).toEqual(byDraft(ids, keys));
  for (const id of ids) expect(await r.local.drafts.get(id)).toBeUndefined();
});

/** A port nothing listens on: connecting is refused at once. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('the team store cannot be reached: drafts stay queued locally, and flushLocal moves them later', async () => {
  const r = await rig();
  const ids = await r.drafts(4);
  const unreachable = new pg.Pool({
    connectionString: `postgres://nobody:secret-password@127.0.0.1:${await closedPort()}/none`,
    connectionTimeoutMillis: 2_000,
  });
  try {
    const offline = await submitToTeam({
      local: r.local,
      pool: unreachable,
      cipher: r.cipher,
      log: r.log,
      ids,
      today,
    });
    expect(offline.queued).toEqual(ids);
    expect(offline.moved).toEqual([]);
    expect(offline.waiting).toEqual(ids);
  } finally {
    await unreachable.end();
  }
  for (const id of ids) expect((await r.local.drafts.get(id))?.state).toBe('queued');
  expect(await outboxRows(r.pool)).toEqual([]);
  expect(r.lines.join('\n')).toMatch(/drafts stay queued on this desk/);
  expect(r.lines.join('\n')).not.toMatch(/secret-password|example\.com/);

  // Reconnected: every draft queued on the desk moves, each under the key it was queued with.
  const keys = await Promise.all(ids.map(async (id) => (await r.local.outbox.get(id))?.idempotencyKey));
  const flushed = await flushLocal({ local: r.local, pool: r.pool, cipher: r.cipher });
  expect(flushed.waiting).toEqual([]);
  expect(flushed.moved.toSorted()).toEqual(ids.toSorted());
  expect(await keysByDraft(r)).toEqual(byDraft(ids, keys));
  for (const id of ids) expect(await r.local.drafts.get(id)).toBeUndefined();
});
