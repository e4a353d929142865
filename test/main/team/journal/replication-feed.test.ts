// A desk following the team store's announcements (team store migration 11, live-feed.ts): once caught up, every
// change another connection commits reaches the local replica without the desk reading the store; a row too
// large to announce is read from the store; a connection that listens again catches up before following.
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { createLogger } from '#main/ground/log/logger.ts';
import { startReplication } from '#main/team/journal/replication.ts';
import { FEED_PAYLOAD_MAX } from '#main/team/store/migrations/11-change-feed.ts';
import { until } from '#test/support/poll.ts';
import {
  writeClaim,
  writeCustomer,
  writeNote,
  writeRetry,
  writeStatusChange,
} from '#test/support/team/team-changes.ts';
import { replicaStores } from './fixtures/replica-store.ts';

const { cleanup, open } = replicaStores();

/** A store, and a desk following it on a pool of its own (so its reads can be counted apart from the writers'). */
async function followingDesk() {
  const { store, local } = await open();
  const pool = new pg.Pool({ connectionString: store.url, max: 2 });
  cleanup.push(() => pool.end());
  const changed: string[] = [];
  const replication = startReplication({
    pool,
    cipher: store.cipher,
    local,
    log: createLogger(() => undefined),
    onChanged: (ids) => changed.push(...ids),
  });
  cleanup.push(() => replication.close());
  await until(() => replication.following, 'the desk to follow the announcements');
  const reads = vi.spyOn(pool, 'query');
  return { store, local, replication, changed, reads, pool };
}

describe('following the team store’s announcements', () => {
  it('applies every kind of change another connection commits, reading nothing from the store', async () => {
    const { store, local, replication, changed, reads } = await followingDesk();

    await writeCustomer(store, { id: 'c-1', name: 'Ada Lovelace', note: 'One document' });
    await writeStatusChange(store, { customerId: 'c-1', status: 'document' });
    await writeNote(store, { customerId: 'c-1', text: 'Photo is blurry' });
    await writeRetry(store, { customerId: 'c-1', outcome: 'verified' });
    const last = await writeClaim(store, { customerId: 'c-1', holder: 'ana' });

    await until(async () => (await local.replica.lastSeq()) >= last, 'the last change to be applied');
    expect(changed).toContain('c-1');
    expect(await local.customers.get('c-1')).toMatchObject({ name: 'Ada Lovelace', note: 'One document' });
    expect(await local.customers.history('c-1')).toMatchObject([{ status: 'document', source: 'event' }]);
    expect(await local.notes.list('c-1')).toMatchObject([{ text: 'Photo is blurry' }]);
    expect(await local.retries.get('c-1')).toMatchObject({ outcome: 'verified' });
    expect(await local.replica.claim('c-1')).toMatchObject({ holder: 'ana' });
    expect(reads).not.toHaveBeenCalled();
    expect(replication.following).toBe(true);
  });

  it('reads its own writes back with one marker through the store, not a read of the changes', async () => {
    const { store, local, replication, reads } = await followingDesk();
    const seq = await writeCustomer(store, { id: 'c-mine', name: 'Mine Own' });
    await replication.upTo(seq);
    expect(await local.customers.get('c-mine')).toMatchObject({ name: 'Mine Own' });
    // A marker at most (none when the announcement was applied before upTo was called), never a page read.
    expect(reads.mock.calls.map(([sql]) => String(sql)).filter((sql) => !sql.includes('pg_notify'))).toEqual(
      [],
    );
  });

  it('knows its own write is in once the write’s announcement is applied, whatever keeps its marker', async () => {
    const { store, local, replication, reads, pool } = await followingDesk();
    // The marker's statement waits (a pool busy with other work): the write's own announcement must do.
    let sendMarker!: () => void;
    const markerHeld = new Promise<void>((resolve) => {
      sendMarker = resolve;
    });
    const query = (args: unknown[]) => Reflect.apply(pg.Pool.prototype.query, pool, args);
    reads.mockImplementation(((...args: unknown[]) =>
      String(args[0]).includes('pg_notify') ? markerHeld.then(() => query(args)) : query(args)) as never);
    const seq = await writeCustomer(store, { id: 'c-own', name: 'Own Write' });
    await replication.upTo(seq);
    expect(await local.customers.get('c-own')).toMatchObject({ name: 'Own Write' });
    sendMarker();
  });

  it('reads the store for a row too large to announce, and follows again after', async () => {
    const { store, local, replication, reads } = await followingDesk();
    const big = await writeCustomer(store, {
      id: 'c-big',
      name: 'Big Row',
      note: 'x'.repeat(FEED_PAYLOAD_MAX),
    });
    await until(async () => (await local.replica.lastSeq()) >= big, 'the large row to be read');
    expect(reads).toHaveBeenCalled();
    expect((await local.customers.get('c-big'))?.note).toHaveLength(FEED_PAYLOAD_MAX);
    await until(() => replication.following, 'the desk to follow again');

    reads.mockClear();
    const small = await writeCustomer(store, { id: 'c-small', name: 'Small Row' });
    await until(async () => (await local.replica.lastSeq()) >= small, 'the small row to be applied');
    expect(reads).not.toHaveBeenCalled();
  });

  it('after its connection is cut, catches up on what was committed meanwhile before following again', async () => {
    const { store, local, replication } = await followingDesk();
    const listenerPid = async () =>
      (
        await store.pool.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE application_name = 'vetted-replica-listener'`,
        )
      ).rows[0]?.pid;
    const pid = await listenerPid();
    await store.pool.query('SELECT pg_terminate_backend($1)', [pid]);
    await until(() => !replication.following, 'the desk to stop following');
    // Committed while nobody listened: no announcement of it will ever arrive.
    const missed = await writeCustomer(store, { id: 'c-missed', name: 'While Away' });
    await until(async () => (await local.replica.lastSeq()) >= missed, 'the missed change to be caught up');
    expect(await local.customers.get('c-missed')).toMatchObject({ name: 'While Away' });
    await until(() => replication.following, 'the desk to follow again');
    expect(await listenerPid()).not.toBe(pid);
  });
});
