// A session that listens, ended from the server side (pg_terminate_backend, as a failover or a restart does,
// #37): the desk's change listener and the team outbox drainer's liveness session each log the loss, open a
// new session and go on (the listener hears again; the drainer holds its lock again and sends), and nothing
// reaches this process's last net: no exception nothing caught, no rejection nothing handled.
import pg from 'pg';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { listenForChanges } from '#main/team/journal/change-listener.ts';
import { startTeamDrain, submitToTeam } from '#main/team/outbox/index.ts';
import { liveDrainers } from '#main/team/outbox/liveness.ts';
import { sharedSandbox } from '#test/support/desk/shared-sandbox.ts';
import { until } from '#test/support/poll.ts';
import { outboxRows, type TeamOutboxRig, teamOutboxRig } from './outbox-rig.ts';

const shared = sharedSandbox();
const closing: Array<() => Promise<void>> = [];
const faults: unknown[] = [];
const fault = (error: unknown) => faults.push(error);
beforeEach(() => {
  faults.length = 0;
  process.on('uncaughtException', fault);
  process.on('unhandledRejection', fault);
});
afterEach(async () => {
  process.off('uncaughtException', fault);
  process.off('unhandledRejection', fault);
  for (const close of closing.splice(0).reverse()) await close();
});

async function rig(): Promise<TeamOutboxRig> {
  const r = await teamOutboxRig();
  closing.push(() => r.close());
  return r;
}

/** Ends every session of this database that names itself `name`; answers how many. */
async function endSessions(db: pg.Pool, name: string): Promise<number> {
  const { rows } = await db.query(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()`,
    [name],
  );
  return rows.length;
}

test('the change listener’s session ended: it listens again on a new one and hears the next change', async () => {
  const r = await rig();
  let listened = 0;
  const heard: number[] = [];
  const ear = listenForChanges({
    connection: { connectionString: r.url },
    applicationName: 'lost-listen-ear',
    onNotify: (seq) => heard.push(seq),
    onListening: () => listened++,
    log: r.log,
  });
  closing.push(() => ear.close());
  await until(() => listened === 1, 'listening');

  expect(await endSessions(r.pool, 'lost-listen-ear')).toBe(1);
  await until(() => listened === 2, 'listening again on a new session');
  await r.pool.query(`SELECT pg_notify('vetted_changes', '42')`);
  await until(() => heard.includes(42), 'a change heard after the loss');
  expect(r.lines.join('\n')).toContain('change listener lost its connection');
  expect(faults).toEqual([]);
});

test('the outbox drainer’s liveness session ended: it holds its lock again on a new one and sends what is due', async () => {
  const r = await rig();
  const notifications = new pg.Pool({
    connectionString: r.url,
    max: 1,
    application_name: 'lost-listen-outbox',
  });
  notifications.on('error', () => undefined);
  closing.push(() => notifications.end());
  const holder = 'lost-listen-desk';
  const drainer = startTeamDrain({
    pool: r.pool,
    notifications,
    cipher: r.cipher,
    sealer: r.audit.sealer,
    client: () => shared.client,
    holder,
    log: r.log,
    pollMs: 20,
  });
  closing.push(() => drainer.close());
  const key = (await r.pool.query<{ key: string }>('SELECT hashtext($1)::oid::text AS key', [holder]))
    .rows[0]!.key;
  await until(async () => (await liveDrainers(r.pool)).has(key), 'the drainer alive');

  expect(await endSessions(r.pool, 'lost-listen-outbox')).toBe(1);
  await until(() => r.lines.join('\n').includes('lost the notification connection'), 'the loss logged');
  await until(async () => (await liveDrainers(r.pool)).has(key), 'the drainer alive again on a new session');
  const ids = await r.drafts(1);
  await submitToTeam({ local: r.local, pool: r.pool, cipher: r.cipher, ids, today: new Date() });
  await until(
    async () => (await outboxRows(r.pool))[0]?.state === 'created',
    'the draft sent after the loss',
  );
  expect(faults).toEqual([]);
});
