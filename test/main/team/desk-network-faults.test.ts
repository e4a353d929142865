// A desk whose network to the team store goes silent, is cut, or slows down (issue #37), through the tests'
// fault proxy. The desk runs with short bounds (a heartbeat every 0.5 s answered within 2.5 s, 3 s per
// statement): a black hole gives no TCP error for minutes, so every "noticed" here is the desk's own
// deadline at work. Another desk, on the store directly, makes the changes this one must catch up on.
import { afterEach, expect, it } from 'vitest';
import { createFieldKey } from '#main/ground/crypto.ts';
import { createLogger } from '#main/ground/log/logger.ts';
import { openTeamRuntime, type TeamRuntime, type TeamRuntimeOptions } from '#main/team/runtime.ts';
import { startFaultProxy } from '#test/support/network/fault-proxy.ts';
import { until } from '#test/support/poll.ts';
import { freshDatabase } from '#test/support/postgres/team-db.ts';
import { makeTeamStore, type TestTeamStore } from '#test/support/team/team-store.ts';
import { serviceCustomer, tempDir } from '../data/journal/helpers.ts';

const HEARTBEAT = { everyMs: 500, answerMs: 2_500 };
const QUERY_TIMEOUT_MS = 3_000;
/** Well past the bounds above, well short of anything TCP would notice on its own. */
const NOTICED_WITHIN_MS = 10_000;

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function openDesk(store: TestTeamStore, port: number, silence?: TeamRuntimeOptions['silence']) {
  const logs: string[] = [];
  const changed: string[] = [];
  const runtime = await openTeamRuntime({
    team: {
      teamId: store.teamId,
      connection: { ...store.connection, host: '127.0.0.1', port },
      password: store.password,
      teamKey: store.teamKey,
    },
    role: 'desk',
    dataDir: tempDir(),
    dataKey: createFieldKey(),
    log: createLogger((line) => logs.push(line)),
    client: () => {
      throw new Error('no service in these tests');
    },
    onCustomersChanged: (ids) => changed.push(...ids),
    drains: false,
    ...(silence ? { silence } : {}),
  });
  cleanup.push(() => runtime.close());
  return { runtime, logs, changed };
}

/** A desk through the fault proxy, with short bounds, listening; and another desk on the store directly. */
async function desks() {
  const store = await makeTeamStore(await freshDatabase());
  const proxy = await startFaultProxy({ host: store.connection.host, port: store.connection.port });
  cleanup.push(() => proxy.close());
  const other = await openDesk(store, store.connection.port);
  const desk = await openDesk(store, proxy.port, {
    heartbeat: HEARTBEAT,
    queryTimeoutMs: QUERY_TIMEOUT_MS,
    connectTimeoutMs: QUERY_TIMEOUT_MS,
  });
  await until(() => desk.runtime.replication.listening, 'the desk to listen');
  // Its pool holds a connection through the proxy, as a desk at work does.
  await desk.runtime.replication.catchUp();
  const write = (runtime: TeamRuntime, id: string) =>
    runtime.journal.customers.upsert(serviceCustomer({ id, status: 'retry' }), { source: 'created' });
  return { proxy, desk, other, write };
}

it('black-holed while idle and listening: the heartbeat notices, and once the network is back the desk catches up', async () => {
  const { proxy, desk, other, write } = await desks();

  proxy.blackHole();
  await until(
    () => !desk.runtime.replication.listening,
    'the silent connection to be noticed',
    NOTICED_WITHIN_MS,
  );
  expect(desk.logs.join('\n')).toContain(`no answer to a heartbeat within ${HEARTBEAT.answerMs} ms`);
  await write(other.runtime, 'c-meanwhile');

  proxy.pass();
  await until(() => desk.changed.includes('c-meanwhile'), 'the change made meanwhile', NOTICED_WITHIN_MS);
  await until(() => desk.runtime.replication.listening, 'listening again');
  await write(other.runtime, 'c-after');
  await until(() => desk.changed.includes('c-after'), 'a change heard live again');
});

it('black-holed during a write: the write fails in words within the bound, and succeeds once the network is back', async () => {
  const { proxy, desk, write } = await desks();

  proxy.blackHole();
  const started = performance.now();
  await expect(write(desk.runtime, 'c-written')).rejects.toMatchObject({
    name: 'TeamConnectionError',
    kind: 'unreachable',
    message: expect.stringMatching(/did not answer in time/),
  });
  expect(performance.now() - started).toBeLessThan(NOTICED_WITHIN_MS);

  proxy.pass();
  await until(
    () =>
      write(desk.runtime, 'c-written').then(
        () => true,
        () => false,
      ),
    'the write to go through once the network is back',
    NOTICED_WITHIN_MS,
  );
  expect(await desk.runtime.journal.customers.get('c-written')).toMatchObject({ id: 'c-written' });
  await until(() => desk.changed.includes('c-written'), 'the write in the desk’s own replica');
});

it('cut: every connection reset, the desk connects again and catches up what it missed', async () => {
  const { proxy, desk, other, write } = await desks();

  proxy.cut();
  await until(() => !desk.runtime.replication.listening, 'the reset to be noticed');
  await write(other.runtime, 'c-during-cut');
  await expect(write(desk.runtime, 'c-refused')).rejects.toMatchObject({
    name: 'TeamConnectionError',
    kind: 'unreachable',
  });

  proxy.pass();
  await until(
    () => desk.changed.includes('c-during-cut'),
    'the change made during the cut',
    NOTICED_WITHIN_MS,
  );
  await until(() => desk.runtime.replication.listening, 'listening again');
  await write(desk.runtime, 'c-mine');
  await until(() => other.changed.includes('c-mine'), 'the desk’s write to reach the other desk');
});

it('slowed: writes and live changes still arrive, each round trip the slower', async () => {
  const { proxy, desk, other, write } = await desks();
  const delayMs = 150;

  proxy.delay(delayMs);
  const started = performance.now();
  await write(desk.runtime, 'c-slow-mine');
  // At least one round trip through the delay, each way.
  expect(performance.now() - started).toBeGreaterThanOrEqual(2 * delayMs);
  await write(other.runtime, 'c-slow-theirs');
  await until(() => desk.changed.includes('c-slow-theirs'), 'the other desk’s change, slowed');
  expect(desk.runtime.replication.listening).toBe(true);
});
