// A desk whose LISTEN connection is lost (killed by the server, or silent: found by the heartbeat) waits a
// bounded, growing time, listens again, and reads every change it missed meanwhile. The test holds the
// scheduler (test/support/team/held-scheduler.ts), so "later" and "no answer in time" are its to decide.
import { expect, it } from 'vitest';
import type { openJournal } from '#main/data/journal/index.ts';
import { createLogger } from '#main/ground/log/logger.ts';
import { LISTENER_APPLICATION_NAME, RECONNECT_BACKOFF } from '#main/team/journal/change-listener.ts';
import { startReplication } from '#main/team/journal/replication.ts';
import { startFaultProxy, throughProxy } from '#test/support/network/fault-proxy.ts';
import { until } from '#test/support/poll.ts';
import { heldScheduler } from '#test/support/team/held-scheduler.ts';
import { writeCustomer } from '#test/support/team/team-changes.ts';
import { type ReplicaStores, replicaStores } from './fixtures/replica-store.ts';

const { cleanup, open: followedStore } = replicaStores();

/** Follows `store` into `local`, scheduled by `scheduler`; `connectionString` for the LISTEN connection. */
function follow(
  { store, local }: ReplicaStores,
  scheduler: ReturnType<typeof heldScheduler>,
  { connectionString, changed }: { connectionString?: string; changed?: string[] } = {},
) {
  const replication = startReplication({
    pool: store.pool,
    ...(connectionString ? { connection: { connectionString } } : {}),
    cipher: store.cipher,
    local,
    log: createLogger(() => undefined),
    schedule: scheduler.schedule,
    random: () => 1,
    ...(changed ? { onChanged: (ids: string[]) => changed.push(...ids) } : {}),
  });
  cleanup.push(() => replication.close());
  return replication;
}

const found = async (local: ReturnType<typeof openJournal>, search: string) =>
  (await local.queue.window({ section: 'all', search, offset: 0, limit: 50 })).rows.map((row) => row.id);

it('killed from the server side, the listener reconnects and the replica catches up on what it missed', async () => {
  const followed = await followedStore();
  const { store, local } = followed;
  const scheduler = heldScheduler();
  const changed: string[] = [];
  const replication = follow(followed, scheduler, { changed });
  await writeCustomer(store, { id: 'c-before', name: 'Before Drop' });
  await until(() => changed.includes('c-before'), 'the first customer to arrive');
  // A catch-up the first NOTIFY queued may still be running: let it end, so what follows is missed for sure
  // and can only come back through the reconnect.
  await replication.catchUp();

  const { rows } = await store.pool.query<{ killed: boolean }>(
    `SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity
     WHERE application_name = $1 AND datname = current_database()`,
    [LISTENER_APPLICATION_NAME],
  );
  expect(rows).toEqual([{ killed: true }]);
  await until(() => scheduler.pending() === 1, 'a reconnect to be scheduled');
  expect(replication.listening).toBe(false);

  // Committed while nobody listens: its NOTIFY is lost for this desk.
  const missed = await writeCustomer(store, { id: 'c-missed', name: 'Missed While Down' });
  const missedToo = await writeCustomer(store, { id: 'c-missed-2', name: 'Also Missed' });
  expect(await local.replica.lastSeq()).toBeLessThan(missed);

  scheduler.fire();
  await until(() => changed.includes('c-missed') && changed.includes('c-missed-2'), 'the missed customers');
  expect(await found(local, 'missed while')).toEqual(['c-missed']);
  expect(await local.replica.lastSeq()).toBe(missedToo);
  await until(() => replication.listening, 'listening again');
  // Listening again for real: a new commit arrives by its NOTIFY.
  await writeCustomer(store, { id: 'c-after', name: 'After Return' });
  await until(() => changed.includes('c-after'), 'a change after the reconnect');
  expect(scheduler.delays).toEqual([RECONNECT_BACKOFF.baseMs]);
});

it('while the store cannot be reached, waits longer each time up to the bound, then starts again from the last change', async () => {
  const followed = await followedStore();
  const { store, local } = followed;
  const scheduler = heldScheduler();
  const badUrl = new URL(store.url);
  badUrl.pathname = '/no_such_database';
  const replication = follow(followed, scheduler, { connectionString: badUrl.toString() });
  for (let attempt = 1; attempt <= 8; attempt++) {
    await until(() => scheduler.pending() === 1, `reconnect ${attempt} to be scheduled`);
    scheduler.fire();
  }
  await until(() => scheduler.pending() === 1, 'the next reconnect');
  const { baseMs, maxMs } = RECONNECT_BACKOFF;
  expect(scheduler.delays).toEqual([1, 2, 4, 8, 16, 32, 64, 64, 64].map((n) => Math.min(maxMs, n * baseMs)));
  expect(replication.listening).toBe(false);
  // The desk still reads through its pool on demand.
  const seq = await writeCustomer(store, { id: 'c-1', name: 'Pool Only' });
  await replication.upTo(seq);
  expect(await found(local, 'pool only')).toEqual(['c-1']);
});

it('closing ends the listening connection, and cancels a reconnect that was waiting', async () => {
  const followed = await followedStore();
  const { store } = followed;
  const listenerSessions = async () =>
    (
      await store.pool.query(
        'SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()',
        [LISTENER_APPLICATION_NAME],
      )
    ).rows.length;
  const start = (scheduler: ReturnType<typeof heldScheduler>) => follow(followed, scheduler);

  const listening = start(heldScheduler());
  await until(() => listening.listening, 'listening');
  expect(await listenerSessions()).toBe(1);
  await listening.close();
  expect(listening.listening).toBe(false);
  await until(async () => (await listenerSessions()) === 0, 'the listener’s session to end');
  await expect(listening.catchUp()).rejects.toThrow(/stopped following the team store/);

  const scheduler = heldScheduler();
  const waiting = start(scheduler);
  await until(() => waiting.listening, 'listening again');
  await store.pool.query(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()`,
    [LISTENER_APPLICATION_NAME],
  );
  await until(() => scheduler.pending() === 1, 'a reconnect to be scheduled');
  await waiting.close();
  expect(scheduler.pending()).toBe(0);
});

it('a connection that goes silent misses a heartbeat’s answer, is dropped, and the desk catches up', async () => {
  const followed = await followedStore();
  const { store, local } = followed;
  const direct = new URL(store.url);
  const proxy = await startFaultProxy({ host: direct.hostname, port: Number(direct.port) });
  cleanup.push(() => proxy.close());
  const scheduler = heldScheduler();
  const changed: string[] = [];
  const replication = follow(followed, scheduler, {
    connectionString: throughProxy(store.url, proxy),
    changed,
  });
  await until(() => replication.listening, 'listening');
  expect(scheduler.heartbeat()).toEqual(['beat']);

  // A healthy connection answers its beat: the wait for the answer ends and the next beat is planned.
  scheduler.fireHeartbeat();
  expect(scheduler.heartbeat()).toEqual(['answer']);
  await until(() => scheduler.heartbeat().join() === 'beat', 'the answer to the first beat');

  proxy.blackHole();
  const silent = await writeCustomer(store, { id: 'c-silent', name: 'Written While Silent' });
  scheduler.fireHeartbeat();
  expect(scheduler.heartbeat()).toEqual(['answer']);
  expect(replication.listening).toBe(true);
  // No answer can come through a frozen connection: giving up on it is the listener's only way to know.
  scheduler.fireHeartbeat();
  expect(replication.listening).toBe(false);
  expect(scheduler.heartbeat()).toEqual([]);
  expect(scheduler.pending()).toBe(1);

  // The network comes back: the reconnect goes through.
  proxy.pass();
  scheduler.fire();
  await until(() => changed.includes('c-silent'), 'the customer written while the connection was silent');
  expect(await local.replica.lastSeq()).toBe(silent);
  await until(() => replication.listening, 'listening again');
  expect(scheduler.heartbeat()).toEqual(['beat']);
  expect(scheduler.delays).toEqual([RECONNECT_BACKOFF.baseMs]);
  // Listening again for real: a new commit arrives by its NOTIFY.
  await writeCustomer(store, { id: 'c-after', name: 'After The Cut' });
  await until(() => changed.includes('c-after'), 'a change after the reconnect');
});
