// Live changes from the team store into a desk's local replica: catch-up in pages, NOTIFY, read-your-writes,
// stale pages, a wrong key. (Reconnecting after a lost LISTEN connection: replication-reconnect.test.ts.)
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openJournal, type SqliteJournal } from '#main/data/journal/index.ts';
import { personalCipher } from '#main/data/journal/personal.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { createLogger } from '#main/ground/log/logger.ts';
import { readChangesPage } from '#main/team/journal/replica-rows.ts';
import {
  type Replication,
  type ReplicationOptions,
  startReplication,
} from '#main/team/journal/replication.ts';
import { toPgText } from '#main/team/journal/rows.ts';
import { drawChange } from '#main/team/journal/team-db.ts';
import { journalFile } from '#test/main/data/journal/helpers.ts';
import { until } from '#test/support/poll.ts';
import {
  type TeamStore,
  teamStore,
  writeCustomer,
  writeNote,
  writeRetry,
  writeStatusChange,
} from '#test/support/team/team-changes.ts';

const PERSONAL = {
  address: { address1: '12 Quiet Lane', city: 'Springfield', state: 'IL', postalCode: '62704' },
  dateOfBirth: '1980-04-02',
  ssnLastFour: '6789',
};

const logLines: string[] = [];
const log = createLogger((line) => logLines.push(line));
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
  logLines.length = 0;
});

async function desk(overrides: Partial<ReplicationOptions> = {}) {
  const store = await teamStore();
  cleanup.push(() => store.end());
  const local = openJournal({ file: journalFile(), dataKey: createFieldKey() });
  cleanup.push(() => local.close());
  return {
    store,
    local,
    follow: (more: Partial<ReplicationOptions> = {}) => follow(store, local, { ...overrides, ...more }),
  };
}

function follow(
  store: TeamStore,
  local: SqliteJournal,
  options: Partial<ReplicationOptions> = {},
): Replication {
  const replication = startReplication({ pool: store.pool, cipher: store.cipher, local, log, ...options });
  cleanup.push(() => replication.close());
  return replication;
}

const queue = (local: SqliteJournal, search = '') =>
  local.queue.window({ section: 'all', search, offset: 0, limit: 50 });

describe('replication from the team store', () => {
  it('catches up in pages: customers, history, notes and retries reach the local queue and case', async () => {
    const { store, local, follow: start } = await desk({ pageSize: 2 });
    await writeCustomer(store, {
      id: 'c-1',
      name: 'Ada Lovelace',
      personal: PERSONAL,
      reported: { phone: '555-0100' },
    });
    await writeStatusChange(store, { customerId: 'c-1', status: 'document' });
    await writeCustomer(store, { id: 'c-2', name: 'Grace Hopper', status: 'verified' });
    await writeNote(store, { customerId: 'c-1', text: 'Photo is blurry' });
    await writeRetry(store, { customerId: 'c-2', outcome: 'verified' });
    // Rewritten after its history: the history's page must bring the customer along in its newest state.
    const last = await writeCustomer(store, {
      id: 'c-1',
      name: 'Ada King',
      personal: PERSONAL,
      reported: { phone: '555-0100' },
      pendingDocuments: 1,
      note: 'One document',
    });

    const replication = start();
    expect(await replication.catchUp()).toBe(last);
    expect(await local.replica.lastSeq()).toBe(last);
    expect((await queue(local, 'king')).rows).toMatchObject([
      { id: 'c-1', section: 'review', note: 'One document' },
    ]);
    expect((await queue(local, 'hopper')).rows).toMatchObject([{ id: 'c-2', section: 'verified' }]);
    expect((await queue(local)).counts).toMatchObject({ review: 1, verified: 1 });
    expect(await local.customers.personal('c-1')).toEqual(PERSONAL);
    expect(await local.customers.reported('c-1')).toEqual({ phone: '555-0100' });
    expect(await local.customers.history('c-1')).toMatchObject([{ status: 'document', source: 'event' }]);
    expect(await local.notes.list('c-1')).toMatchObject([{ text: 'Photo is blurry', author: 'postgres' }]);
    expect(await local.retries.get('c-2')).toMatchObject({ outcome: 'verified' });
    // Released on the team store (a tombstone with a new number): the retry is there again on this desk too.
    await writeRetry(store, { customerId: 'c-2', outcome: null, released: true });
    await replication.catchUp();
    expect(await local.retries.get('c-2')).toBeUndefined();
    // Nothing new: the same number, nothing applied twice.
    const released = await local.replica.lastSeq();
    expect(released).toBeGreaterThan(last);
    expect(await replication.catchUp()).toBe(released);
    expect(await local.customers.history('c-1')).toHaveLength(1);
    expect(await local.notes.count('c-1')).toBe(1);
  });

  it('applies another connection’s commit on its NOTIFY and tells onChanged which customers changed', async () => {
    const changed: string[][] = [];
    const { store, local, follow: start } = await desk();
    const replication = start({ onChanged: (ids) => changed.push(ids) });
    await until(() => replication.listening, 'the replica to listen');
    // Whatever the start-up catch-up does is over: from here only a notification can bring changes in.
    await replication.catchUp();

    await writeCustomer(store, { id: 'c-live', name: 'Live Wire' });

    await until(() => changed.flat().includes('c-live'), 'onChanged for c-live');
    expect((await queue(local, 'live wire')).rows).toMatchObject([{ id: 'c-live' }]);
  });

  it('upTo resolves once a committed change is in the local replica (read-your-writes)', async () => {
    const { store, local, follow: start } = await desk();
    const replication = start();
    const seq = await writeCustomer(store, { id: 'c-mine', name: 'Mine Own' });
    await replication.upTo(seq);
    expect(await local.replica.lastSeq()).toBeGreaterThanOrEqual(seq);
    expect((await queue(local, 'mine own')).rows).toMatchObject([{ id: 'c-mine' }]);
    // Already there: answers at once, reading nothing.
    await replication.upTo(seq);
    // A number no row holds (its transaction rolled back, or a later change rewrote the row): a catch-up that
    // began after the call has read everything committed before it, so upTo never waits for it for ever.
    const gap = await store.pool.connect().then(async (client) => {
      try {
        await client.query('BEGIN');
        return await drawChange(client);
      } finally {
        await client.query('ROLLBACK');
        client.release();
      }
    });
    await replication.upTo(gap);
    expect(await local.replica.lastSeq()).toBe(seq);
  });

  it('coalesces catch-ups: one runs, every request made meanwhile shares one more after it', async () => {
    const { store, local, follow: start } = await desk();
    const replication = start();
    await until(() => replication.listening, 'the replica to listen');
    await replication.catchUp();
    const seq = await writeCustomer(store, { id: 'c-1', name: 'Only Once' });
    const reads = vi.spyOn(store.pool, 'connect');
    const results = await Promise.all(Array.from({ length: 10 }, () => replication.catchUp()));
    expect(results).toEqual(Array(10).fill(seq));
    // One page per run: the one running and the one queued behind it (plus, at most, the run the change's
    // own NOTIFY started just before). Without coalescing, ten.
    expect(reads.mock.calls.length).toBeLessThanOrEqual(3);
    expect((await queue(local, 'only once')).rows).toHaveLength(1);
  });

  it('a page read before a newer change was applied changes nothing when applied after it', async () => {
    const { store, local, follow: start } = await desk();
    await writeCustomer(store, { id: 'c-1', name: 'First Name', status: 'document' });
    const stalePage = await readChangesPage(store.pool, store.cipher, 0, 100);
    await writeCustomer(store, { id: 'c-1', name: 'Second Name', status: 'verified' });
    const last = await start().catchUp();

    expect(await local.replica.applyChanges(stalePage.changes)).toEqual({ lastSeq: last, customerIds: [] });
    expect(await local.customers.get('c-1')).toMatchObject({ name: 'Second Name', status: 'verified' });
    expect((await queue(local)).counts).toMatchObject({ document: 0, verified: 1 });
  });

  it('reads a page in one statement whose times and texts are what the tables give, to the millisecond', async () => {
    const { store } = await desk();
    await writeCustomer(store, { id: 'c-1', name: 'Exact Time' });
    // Microseconds, as PostgreSQL's own now() writes them: the page's JSON must cut them as node-postgres does.
    await writeStatusChange(store, {
      customerId: 'c-1',
      status: 'document',
      at: '2026-03-01T09:00:00.678999Z',
    });
    // A status as the service may send it, written escaped as the team journal writes it (text holds no NUL).
    await store.pool.query(
      `UPDATE vetted.customers SET status = $1, status_since = '2026-03-02 10:11:12.345678+00'`,
      [toPgText('needs\\review\u0000x')],
    );
    const page = await readChangesPage(store.pool, store.cipher, 0, 100);
    const { rows } = await store.pool.query<{ status_since: Date }>(
      'SELECT status_since FROM vetted.customers',
    );
    expect(page.changes.customers).toMatchObject([
      { id: 'c-1', statusSince: rows[0]?.status_since.toISOString(), status: 'needs\\review\u0000x' },
    ]);
    expect(page.changes.customers?.[0]?.statusSince).toBe('2026-03-02T10:11:12.345Z');
    expect(page.changes.statusHistory).toMatchObject([
      { status: 'document', at: '2026-03-01T09:00:00.678Z' },
    ]);
    expect(page).toMatchObject({ more: false, changes: { through: 2 } });
  });

  it('refuses rows sealed with another team key, in words, applying nothing and leaking nothing', async () => {
    const { store, local } = await desk();
    await writeCustomer(store, { id: 'c-1', name: 'Secret Person', personal: PERSONAL });
    const wrongKey = follow(store, local, { cipher: personalCipher(createFieldKey()) });
    const refusal = await wrongKey.catchUp().then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(refusal?.message).toMatch(
      /Cannot decrypt profile of customers c-1: it was encrypted with another/,
    );
    expect(refusal?.message).not.toMatch(/Secret Person|Quiet Lane/);
    expect(await local.replica.lastSeq()).toBe(0);
    expect(logLines.join('\n')).not.toMatch(/Secret Person|Quiet Lane|6789/);
  });
});
