// Since when the team store has been away (main/team/store/store-presence.ts): from the replica's LISTEN
// session, lost and listening again. First with a fake signal source (the calls the listener makes) and a
// clock the test moves; then wired to a real listener on a real store, its reconnects held by the test.
import { expect, it } from 'vitest';
import type { StorePresence } from '#contract/store-presence.ts';
import { createLogger } from '#main/ground/log/logger.ts';
import { LISTENER_APPLICATION_NAME } from '#main/team/journal/change-listener.ts';
import { startReplication } from '#main/team/journal/replication.ts';
import { trackStorePresence } from '#main/team/store/store-presence.ts';
import { until } from '#test/support/poll.ts';
import { heldScheduler } from '#test/support/team/held-scheduler.ts';
import { replicaStores } from '../journal/fixtures/replica-store.ts';

const { cleanup, open: followedStore } = replicaStores();

function clockAt(start: number) {
  let now = start;
  return { now: () => now, move: (ms: number) => (now += ms) };
}

it('away from the first loss, however many reconnects fail after it; back when a session listens; told on change only', () => {
  const clock = clockAt(1_000_000);
  const presence = trackStorePresence(clock.now);
  const told: StorePresence[] = [];
  const stop = presence.watch((change) => told.push(change));

  expect(presence.current()).toEqual({ awaySince: null });
  // Listening from the start: nothing changed, nothing told.
  presence.answered();
  expect(told).toEqual([]);

  clock.move(5_000);
  presence.lost();
  // Each failed attempt to connect again says lost again: away since the first.
  clock.move(250);
  presence.lost();
  clock.move(15_000);
  presence.lost();
  expect(presence.current()).toEqual({ awaySince: 1_005_000 });

  clock.move(2_000);
  presence.answered();
  presence.answered();
  expect(presence.current()).toEqual({ awaySince: null });

  // Away again later: since then, not since the first time.
  clock.move(60_000);
  presence.lost();
  expect(told).toEqual([{ awaySince: 1_005_000 }, { awaySince: null }, { awaySince: 1_082_250 }]);

  stop();
  presence.answered();
  expect(told).toHaveLength(3);
  expect(presence.current()).toEqual({ awaySince: null });
});

it('a desk that never reached the store is away from its first attempt', () => {
  const clock = clockAt(42);
  const presence = trackStorePresence(clock.now);
  presence.lost();
  expect(presence.current()).toEqual({ awaySince: 42 });
});

it('wired to the replica’s listener: its session killed, the store is away from then until the listener listens again', async () => {
  const { store, local } = await followedStore();
  const clock = clockAt(Date.parse('2026-01-05T09:00:00Z'));
  const presence = trackStorePresence(clock.now);
  const told: StorePresence[] = [];
  presence.watch((change) => told.push(change));
  const scheduler = heldScheduler();
  const replication = startReplication({
    pool: store.pool,
    cipher: store.cipher,
    local,
    log: createLogger(() => undefined),
    schedule: scheduler.schedule,
    random: () => 1,
    session: { lost: () => presence.lost(), listening: () => presence.answered() },
  });
  cleanup.push(() => replication.close());
  await until(() => replication.listening, 'the listener to listen');
  expect(told).toEqual([]);

  clock.move(1_000);
  await store.pool.query(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
     WHERE application_name = $1 AND datname = current_database()`,
    [LISTENER_APPLICATION_NAME],
  );
  await until(() => scheduler.pending() === 1, 'a reconnect to be scheduled');
  const awaySince = Date.parse('2026-01-05T09:00:01Z');
  expect(presence.current()).toEqual({ awaySince });

  clock.move(30_000);
  scheduler.fire();
  await until(() => replication.listening, 'listening again');
  expect(presence.current()).toEqual({ awaySince: null });
  expect(told).toEqual([{ awaySince }, { awaySince: null }]);
});
