import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient, type ServiceClient } from '#main/data/service/index.ts';
import { decryptField, encryptField } from '#main/ground/crypto.ts';
import { openFileKeyVault } from '#main/ground/vault/vault.ts';
import { type RunningSandbox, startSandbox } from '#sandbox/index.ts';
import { type DeskHarness, PERSON, removeDir, startDesk } from '#test/support/desk/desk-harness.ts';
import { dataDirWithPort, freePort, nextEvent } from './helpers.ts';

/**
 * On both profiles (the real one lists a subscription's webhooks by date, which redelivery asks by).
 * Events missed while Vetted was closed: the service goes on without it (a sandbox on the desk's
 * own data file, its deliveries failing), and the next start fetches them with `GET /events`.
 */
describe.each(['interface', 'real'] as const)('desk: catching up on missed events, %s profile', (profile) => {
  let dir: string;
  let h: DeskHarness | undefined;
  let subscriptionId: string;

  /** The desk starts and its start-up catch-up run ends. */
  const start = async () => {
    h = await startDesk(dir, (options) => startSandbox({ ...options, profile, reviewDelayMs: 60_000 }));
    const caughtUp = await nextEvent(h, 'webhooks.caughtUp');
    return { h, caughtUp };
  };
  const stop = async () => {
    await h?.close();
    h = undefined;
  };

  /** The sandbox alone, as the desk runs it (same file, same seal), while the desk is closed. */
  const withServiceAlone = async (
    work: (client: ServiceClient, sandbox: RunningSandbox) => Promise<void>,
  ) => {
    const key = openFileKeyVault({ dir }).dataKey();
    const AAD = 'vetted:sandbox-secret';
    const sandbox = await startSandbox({
      profile,
      data: path.join(dir, 'sandbox.db'),
      secrets: {
        seal: (plain) => encryptField(key, plain, AAD),
        open: (sealed) => decryptField(key, sealed, AAD),
      },
    });
    const client = createServiceClient({
      baseUrl: sandbox.baseUrl,
      clientId: sandbox.clientId,
      clientSecret: sandbox.clientSecret,
    });
    try {
      await work(client, sandbox);
      // Every delivery due now has been tried (and failed: nobody listens).
      await sandbox.advanceClock(0);
    } finally {
      await client.close();
      await sandbox.close();
    }
  };
  const create = (client: ServiceClient, firstName: string) =>
    client.customers.create({ ...PERSON, firstName, email: `${firstName.toLowerCase()}@example.com` });

  beforeAll(async () => {
    dir = dataDirWithPort(await freePort());
    const { h } = await start();
    const { subscriptions } = await h.call('webhooks.list');
    subscriptionId = subscriptions!.find((s) => s.ours)!.id;
    await stop();
  });
  afterAll(async () => {
    await stop();
    removeDir(dir);
  });

  it('processes every event missed while closed exactly once, from GET /events', async () => {
    const ids: string[] = [];
    await withServiceAlone(async (client, sandbox) => {
      ids.push((await create(client, 'retry')).id, (await create(client, 'document')).id);
      await sandbox.advanceClock(0);
      const { deliveries } = await client.subscriptions.deliveries(subscriptionId);
      expect(deliveries).toHaveLength(4);
      // Tried, and no answer came: the listener was not running.
      for (const delivery of deliveries) {
        expect(delivery.attempts.length).toBeGreaterThan(0);
        expect(delivery.attempts.every((attempt) => attempt.response === undefined)).toBe(true);
      }
    });

    const { h, caughtUp } = await start();
    expect(caughtUp).toEqual({ recorded: 4, processed: 4, pausedSubscriptions: [], message: null });
    const log = await h.call('events.window', { offset: 0, limit: 50 });
    expect(log.total).toBe(4);
    for (const row of log.rows) {
      expect(row).toMatchObject({ signatureVerified: false, duplicatesSeen: 0, processed: true });
    }
    const queue = await h.call('queue.window', { section: 'all', search: '', offset: 0, limit: 10 });
    expect(Object.fromEntries(queue.rows.map((row) => [row.id, row.section]))).toEqual({
      [ids[0]!]: 'retry',
      [ids[1]!]: 'document',
    });
    // Asked again: nothing new to record.
    expect(await h.call('webhooks.catchUp')).toMatchObject({ recorded: 0, message: null });
    await stop();
  });

  it('tells of a paused subscription; resuming it redelivers what the service kept unsent', async () => {
    let suspended = '';
    await withServiceAlone(async (client) => {
      await client.subscriptions.setPaused(subscriptionId, true);
      suspended = (await create(client, 'suspended')).id;
    });

    const { h, caughtUp } = await start();
    expect(caughtUp).toMatchObject({
      recorded: 2,
      processed: 2,
      pausedSubscriptions: [{ id: subscriptionId, paused: true, ours: true, target: 'listener' }],
      message: expect.stringMatching(/paused/),
    });
    const ofSuspended = () => h.call('events.window', { customerId: suspended, offset: 0, limit: 10 });
    expect((await ofSuspended()).rows.map((row) => row.duplicatesSeen)).toEqual([0, 0]);

    const resumed = await h.call('webhooks.setPaused', { id: subscriptionId, paused: false });
    expect(resumed).toMatchObject({ subscription: { paused: false }, redelivered: 2 });
    await h.desk.connection().sandbox!.advanceClock(0);
    // Already fetched by the catch-up: each redelivery is answered 200 and counted, not stored again.
    expect((await ofSuspended()).rows.map((row) => row.duplicatesSeen)).toEqual([1, 1]);
    expect((await h.call('events.window', { offset: 0, limit: 50 })).total).toBe(6);
    await stop();
  });
});
