// A whole desk whose connection to its team store is cut (#37), through the tests' fault proxy: it says the
// store is away (the `team.presence` answer and one pushed event), keeps working from its replica, and says
// it is back (one more event) once the store answers again. Nothing here waits on a clock of its own: each
// step waits, bounded, for what the desk reports.
import { expect, test } from 'vitest';
import type { StorePresence } from '#contract/store-presence.ts';
import { createOnService, removeDir, startDesk } from '#test/support/desk/desk-harness.ts';
import { startFaultProxy } from '#test/support/network/fault-proxy.ts';
import { until } from '#test/support/poll.ts';
import { freshDatabase } from '#test/support/postgres/team-db.ts';
import { makeTeamStore } from '#test/support/team/team-store.ts';

test('its store cut, a desk reports the store away since the cut, then back once it answers', async () => {
  const store = await makeTeamStore(await freshDatabase());
  const proxy = await startFaultProxy({ host: store.connection.host, port: store.connection.port });
  const joining = await startDesk();
  const code = await store.code({ connection: { ...store.connection, host: '127.0.0.1', port: proxy.port } });
  await joining.call('team.join', { code, password: store.password });
  await joining.close();
  const h = await startDesk(joining.dataDir);
  const told = () =>
    h.events.filter((e) => e.event === 'team.presence').map((e) => e.payload as StorePresence);
  try {
    await until(() => proxy.open() > 0, 'the desk’s session with its store');
    expect(await h.call('team.presence')).toEqual({ awaySince: null });
    const customerId = await createOnService(h, 'document', 'away@example.com');
    await h.call('customers.add', { ref: customerId });
    await h.call('notes.add', { customerId, text: 'Written before the store went away.' });

    const cutAt = Date.now();
    proxy.cut();
    const away = await until(() => told()[0], 'the desk to report the store away');
    expect(away.awaySince).toBeGreaterThanOrEqual(cutAt);
    expect(away.awaySince).toBeLessThanOrEqual(Date.now());
    expect(await h.call('team.presence')).toEqual(away);
    // The queue still answers, from the desk's own copy, its rows' latest notes too.
    const queue = await h.call('queue.window', { section: 'all', search: '', offset: 0, limit: 10 });
    expect(queue.rows).toMatchObject([{ id: customerId, latestNote: 'Written before the store went away.' }]);

    proxy.pass();
    await until(() => told().length === 2, 'the desk to report the store back', 30_000);
    expect(told()).toEqual([away, { awaySince: null }]);
    expect(await h.call('team.presence')).toEqual({ awaySince: null });
  } finally {
    await h.close();
    await proxy.close();
    removeDir(h.dataDir);
  }
});

test('a solo desk has no store to lose: never away', async () => {
  const h = await startDesk();
  try {
    expect(await h.call('team.presence')).toEqual({ awaySince: null });
  } finally {
    await h.close();
    removeDir(h.dataDir);
  }
});
