// The hub as a real process while its database fails over (#37: the hub died in 17 of 20 runs). Every session
// of the hub's login is ended from the server side while one of its writes waits in a transaction (on
// CHANGE_LOCK, which the test holds): the write in flight, the LISTEN session, the leadership lock's session
// and the outbox's liveness session all at once, as a primary killed under load does. The hub lives on: it
// takes the listener role again and processes the event whose write was cut. Its log shows the process's
// last net caught nothing: the loss was handled where it happened, not by the guard.
import crypto from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { ServiceClient } from '#main/data/service/index.ts';
import { CHANGE_LOCK } from '#main/team/store/sql.ts';
import { samplePerson } from '#test/support/person.ts';
import { until } from '#test/support/poll.ts';
import type { HubFleet, HubProcess } from '#test/support/team/hub-fleet.ts';
import { type HubRig, startHubRig } from '#test/support/team/hub-rig.ts';

let rig: HubRig;
let client: ServiceClient;
let fleet: HubFleet;
let db: pg.Client;

beforeAll(async () => {
  rig = await startHubRig(1);
  ({ client, fleet, db } = rig);
}, 60_000);

afterAll(async () => {
  await rig?.close();
});

const createCustomer = (tag: string) =>
  client.customers.create(samplePerson('Lost', tag, `lost.${tag}@example.com`), {
    idempotencyKey: crypto.randomUUID(),
  });

/** `wait`, unless the hub's process ends first: then its standard error says why. */
async function whileAlive(hub: HubProcess, wait: Promise<unknown>): Promise<void> {
  wait.catch(() => undefined);
  const gone = hub.exited.then(() => 'gone' as const);
  if ((await Promise.race([wait, gone])) === 'gone') {
    throw new Error(`the hub exited (${hub.child.exitCode}): ${hub.output.err.slice(-2000)}`);
  }
}

const unprocessed = async () =>
  (await db.query('SELECT id FROM vetted.events WHERE processed_at IS NULL')).rowCount ?? 0;

test('every session of the hub ended while a write waits in its transaction: the hub leads again and processes the event', async () => {
  const hub = fleet.start(0);
  await hub.leading();
  const login = fleet.logins[0]!.login;
  await createCustomer('before');
  await until(
    async () => (await db.query('SELECT 1 FROM vetted.events')).rowCount! > 0 && (await unprocessed()) === 0,
    'the first event processed',
    30_000,
  );

  // The hub's next write waits for CHANGE_LOCK, inside its transaction.
  await db.query('SELECT pg_advisory_lock($1)', [CHANGE_LOCK]);
  await createCustomer('during');
  await until(
    async () =>
      (
        await db.query(
          `SELECT 1 FROM pg_stat_activity WHERE usename = $1 AND wait_event_type = 'Lock' AND state = 'active'`,
          [login],
        )
      ).rowCount! > 0,
    'a write of the hub waiting in its transaction',
    30_000,
  );
  const ended = await db.query(
    'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1 AND datname = current_database()',
    [login],
  );
  // The write in flight, the LISTEN session, the leadership lock's session, the outbox's: at least these.
  expect(ended.rowCount).toBeGreaterThanOrEqual(4);
  await db.query('SELECT pg_advisory_unlock($1)', [CHANGE_LOCK]);

  await whileAlive(
    hub,
    until(() => hub.output.out.match(/hub: leading/g)?.length === 2, 'the hub to lead again', 60_000),
  );
  await whileAlive(
    hub,
    until(async () => (await unprocessed()) === 0, 'the cut event processed after all', 60_000),
  );
  expect(hub.child.exitCode).toBeNull();
  const log = readFileSync(path.join(hub.dir, 'vetted.log'), 'utf8');
  expect(log).toContain('lost the connection holding the listener role');
  expect(log).not.toMatch(/"msg":"process: /);
}, 180_000);
