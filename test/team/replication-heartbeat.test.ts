// A LISTEN connection cut without a word (no error, no end) is found by the listener's heartbeat: a beat with
// no answer counts as a lost connection, the desk listens again and catches up on what it missed. The test
// holds the scheduler (test/support/held-scheduler.ts), so "later" and "no answer in time" are its to decide.
import { afterEach, expect, it } from 'vitest';
import { createFieldKey } from '../../main/crypto.ts';
import { openJournal } from '../../main/journal/index.ts';
import { createLogger } from '../../main/log.ts';
import { RECONNECT_BACKOFF } from '../../main/team/journal/change-listener.ts';
import { startReplication } from '../../main/team/journal/replication.ts';
import { journalFile } from '../journal/helpers.ts';
import { startFreezableProxy } from '../support/freezable-proxy.ts';
import { heldScheduler } from '../support/held-scheduler.ts';
import { until } from '../support/poll.ts';
import { teamStore, writeCustomer } from '../support/team-changes.ts';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

it('a connection that goes silent misses a heartbeat’s answer, is dropped, and the desk catches up', async () => {
  const store = await teamStore();
  cleanup.push(() => store.end());
  const direct = new URL(store.url);
  const proxy = await startFreezableProxy({ host: direct.hostname, port: Number(direct.port) });
  cleanup.push(() => proxy.close());
  const viaProxy = new URL(store.url);
  viaProxy.port = String(proxy.port);
  const local = openJournal({ file: journalFile(), dataKey: createFieldKey() });
  cleanup.push(async () => local.close());
  const scheduler = heldScheduler();
  const changed: string[] = [];
  const replication = startReplication({
    pool: store.pool,
    connection: { connectionString: viaProxy.toString() },
    cipher: store.cipher,
    local,
    log: createLogger(() => undefined),
    schedule: scheduler.schedule,
    random: () => 1,
    onChanged: (ids) => changed.push(...ids),
  });
  cleanup.push(() => replication.close());
  await until(() => replication.listening, 'listening');
  expect(scheduler.heartbeat()).toEqual(['beat']);

  // A healthy connection answers its beat: the wait for the answer ends and the next beat is planned.
  scheduler.fireHeartbeat();
  expect(scheduler.heartbeat()).toEqual(['answer']);
  await until(() => scheduler.heartbeat().join() === 'beat', 'the answer to the first beat');

  proxy.freeze();
  const silent = await writeCustomer(store, { id: 'c-silent', name: 'Written While Silent' });
  scheduler.fireHeartbeat();
  expect(scheduler.heartbeat()).toEqual(['answer']);
  expect(replication.listening).toBe(true);
  // No answer can come through a frozen connection: giving up on it is the listener's only way to know.
  scheduler.fireHeartbeat();
  expect(replication.listening).toBe(false);
  expect(scheduler.heartbeat()).toEqual([]);
  expect(scheduler.pending()).toBe(1);

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
