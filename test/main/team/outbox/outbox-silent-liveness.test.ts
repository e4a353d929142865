// An outbox drainer whose liveness session goes silent (its network black-holed, issue #37): it notices at
// its next heartbeat and gives the session up, the server ends that session once it has been quiet too long
// (so other drainers stop counting on it and take its rows at once), and once the network is back the
// drainer holds its liveness again on a fresh session.
import { afterEach, expect, test } from 'vitest';
import type { ServiceClient } from '#main/data/service/index.ts';
import { startTeamDrain } from '#main/team/outbox/index.ts';
import { liveDrainers } from '#main/team/outbox/liveness.ts';
import { openTeamPool } from '#main/team/store/pool.ts';
import { startFaultProxy, throughProxy } from '#test/support/network/fault-proxy.ts';
import { until } from '#test/support/poll.ts';
import { connectionOf } from '#test/support/team/team-store.ts';
import { teamOutboxRig } from './outbox-rig.ts';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

test('a silent liveness session is given up by the drainer and ended by the server; the drainer lives again after', async () => {
  const rig = await teamOutboxRig();
  cleanup.push(() => rig.close());
  const direct = new URL(rig.url);
  const proxy = await startFaultProxy({ host: direct.hostname, port: Number(direct.port) });
  cleanup.push(() => proxy.close());
  const { connection, password } = connectionOf(throughProxy(rig.url, proxy));
  // As the runtime opens it, with short bounds: 1.5 s to connect or answer, ended by the server after 5 s
  // quiet (ten heartbeats: a loaded machine's late timer must not end a live session).
  const notifications = openTeamPool(connection, password, {
    max: 1,
    connectTimeoutMs: 1_500,
    queryTimeoutMs: 1_500,
    endWhenQuietMs: 5_000,
    onIdleError: () => undefined,
  });
  cleanup.push(() => notifications.end());
  const drainer = startTeamDrain({
    pool: rig.pool,
    notifications,
    cipher: rig.cipher,
    sealer: rig.audit.sealer,
    client: (): ServiceClient => {
      throw new Error('nothing to send in this test');
    },
    holder: 'desk-a',
    log: rig.log,
    pollMs: 20,
    heartbeatMs: 500,
  });
  cleanup.push(() => drainer.close());
  const { rows } = await rig.pool.query<{ key: string }>(`SELECT hashtext('desk-a')::oid::text AS key`);
  const key = rows[0]?.key ?? '';
  const alive = async () => (await liveDrainers(rig.pool)).has(key);
  await until(alive, 'the drainer to hold its liveness');

  proxy.blackHole();
  await until(
    () => rig.lines.some((line) => line.includes('the notification connection does not answer')),
    'the drainer to notice its silent session',
  );
  // The server's side: the silent session ended, its lock gone with it.
  await until(async () => !(await alive()), 'the server to end the silent session');

  proxy.pass();
  await until(alive, 'the drainer to hold its liveness again');
  expect(proxy.accepted()).toBeGreaterThan(1);
});
