// The hub fails over (#29): two real hub processes behind one front (the team's tunnel or load balancer,
// test/support/network/front-relay.ts), the sandbox delivering webhooks to it as the service does. The leading hub is
// killed with SIGKILL while answers to deliveries it recorded are still on their way; the standby takes the
// role; every delivery acknowledged before the kill is in the team store, recorded from the delivery itself;
// the service's redeliveries of what it never heard acknowledged are absorbed once each, as duplicates.
// Not timed (bench/failover.ts measures how long the team is deaf); every wait is for an event, bounded.
import crypto from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Delivery, ServiceClient } from '#main/data/service/index.ts';
import type { RunningSandbox } from '#sandbox/index.ts';
import type { FrontRelay } from '#test/support/network/front-relay.ts';
import { samplePerson } from '#test/support/person.ts';
import { until } from '#test/support/poll.ts';
import type { HubFleet } from '#test/support/team/hub-fleet.ts';
import { type HubRig, startHubRig } from '#test/support/team/hub-rig.ts';

let rig: HubRig;
let sandbox: RunningSandbox;
let client: ServiceClient;
let front: FrontRelay;
let fleet: HubFleet;
let db: pg.Client;

beforeAll(async () => {
  rig = await startHubRig(2);
  ({ sandbox, client, front, fleet, db } = rig);
}, 60_000);

afterAll(async () => {
  await rig?.close();
});

async function createCustomers(count: number, tag: string): Promise<void> {
  for (let i = 0; i < count; i++) {
    await client.customers.create(samplePerson('Fail', `${tag}${i}`, `fail.${tag}.${i}@example.com`), {
      idempotencyKey: crypto.randomUUID(),
    });
  }
}

async function allDeliveries(): Promise<Delivery[]> {
  const [subscription, ...more] = await client.subscriptions.list();
  expect(more).toEqual([]);
  const deliveries: Delivery[] = [];
  for (let total = 1; deliveries.length < total; ) {
    const page = await client.subscriptions.deliveries(subscription!.id, {
      limit: 100,
      offset: deliveries.length,
    });
    total = page.total;
    if (page.deliveries.length === 0) break;
    deliveries.push(...page.deliveries);
  }
  return deliveries;
}

const acknowledged = (delivery: Delivery) =>
  delivery.attempts.some((attempt) => {
    const status = attempt.response?.statusCode ?? 0;
    return status >= 200 && status < 300;
  });

/** The events of the deliveries the service saw acknowledged. */
async function acknowledgedEvents(): Promise<string[]> {
  return (await allDeliveries()).filter(acknowledged).map((delivery) => delivery.eventId ?? delivery.id);
}

async function storedEvents(ids: readonly string[]) {
  const { rows } = await db.query<{ id: string; verified: boolean; duplicates: number }>(
    `SELECT id, signature_verified AS verified, duplicates_seen AS duplicates FROM vetted.events
      WHERE id = ANY($1::text[]) ORDER BY id`,
    [ids],
  );
  return rows;
}

test('kill -9 the leading hub under deliveries: the standby leads, nothing acknowledged is lost, redeliveries are absorbed once', async () => {
  const a = fleet.start(0);
  await a.leading();
  const b = fleet.start(1);
  await b.standingBy();

  // Deliveries flowing: customers created on the service, whose webhooks reach the leader through the front.
  await createCustomers(4, 'before');
  await until(
    async () => {
      const deliveries = await allDeliveries();
      return deliveries.length >= 4 && deliveries.every(acknowledged);
    },
    'the first deliveries acknowledged by the leading hub',
    30_000,
  );

  // The next answers wait at the front, as answers still on their way when a hub dies.
  front.holdAnswers();
  await createCustomers(4, 'during');
  await until(() => front.held >= 4, 'four answers of the leading hub held at the front', 30_000);
  await a.kill();
  const unheard = front.dropHeld();
  expect(unheard.length).toBeGreaterThanOrEqual(4);

  // Every delivery the service saw acknowledged is in the store, recorded from the delivery itself (a
  // catch-up by the new leader would record it unverified), once.
  const acked = await acknowledgedEvents();
  expect(acked.length).toBeGreaterThanOrEqual(4);
  expect(await storedEvents(acked)).toEqual(
    [...acked].sort().map((id) => ({ id, verified: true, duplicates: expect.any(Number) })),
  );
  // The answers cut at the front: recorded by the dead hub, never acknowledged to the service.
  for (const id of unheard) expect(acked).not.toContain(id);
  expect((await storedEvents(unheard)).map((row) => row.id)).toEqual([...unheard].sort());

  await b.leading();
  await createCustomers(4, 'after');
  // The service sends again what it never heard acknowledged at its next attempt, 15 minutes later.
  await sandbox.advanceClock(15 * 60);
  await until(
    async () => (await allDeliveries()).every(acknowledged),
    'every delivery acknowledged, the unacknowledged ones redelivered to the new leader',
    30_000,
  );

  // Absorbed once each: one row per event the service has, nothing refused, the unheard ones as duplicates.
  const { events } = await client.events.list({ limit: 100 });
  const serviceIds = events.map((event) => event.id).sort();
  const stored = await db.query<{ id: string }>('SELECT id FROM vetted.events ORDER BY id');
  expect(stored.rows.map((row) => row.id)).toEqual(serviceIds);
  for (const row of await storedEvents(unheard)) {
    expect(row, 'an unheard answer redelivered').toMatchObject({ verified: true, duplicates: 1 });
  }
  expect((await db.query('SELECT reason FROM vetted.webhook_rejections')).rows).toEqual([]);
  expect(await client.subscriptions.list()).toHaveLength(1);
  await until(
    async () => (await db.query('SELECT 1 FROM vetted.events WHERE processed_at IS NULL')).rowCount === 0,
    'every event processed by the new leader',
    30_000,
  );
}, 180_000);
