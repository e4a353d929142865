import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signBody } from '#main/features/webhooks/signature.ts';
import { openFileKeyVault } from '#main/ground/vault/vault.ts';
import { jpeg } from '#test/sandbox/helpers.ts';
import {
  createOnService,
  type DeskHarness,
  everyFile,
  removeDir,
  startDesk,
} from '#test/support/desk/desk-harness.ts';
import { dataDirWithPort, freePort, nextEvent, send } from './helpers.ts';

/**
 * End to end on one machine: the built-in sandbox delivers signed webhooks to the desk's own
 * listener, which records them, reconciles the customers and moves the queue.
 */
describe('desk: webhooks from the sandbox to the listener', () => {
  let h: DeskHarness;
  let port: number;
  const sandbox = () => h.desk.connection().sandbox!;
  const client = () => h.desk.connection().client();
  /** Deliveries due now are made (and answered), then everything recorded is processed. */
  const settle = async () => {
    await sandbox().advanceClock(0);
    return h.call('webhooks.catchUp');
  };
  /** `after`: the number of pushed events seen before the action that causes the update. */
  const customerUpdate = (
    id: string,
    check: (row: { section: string; status: string }) => boolean,
    after = h.events.length,
  ) => nextEvent(h, 'customer.updated', (row) => row.id === id && check(row), after);
  const webhookSecrets = () => {
    const vault = openFileKeyVault({ dir: h.dataDir });
    return vault
      .names()
      .filter((name) => name.startsWith('webhookSecret:'))
      .map((name) => vault.get(name)!);
  };

  beforeAll(async () => {
    port = await freePort();
    h = await startDesk(dataDirWithPort(port));
    await nextEvent(h, 'webhooks.caughtUp');
  });
  afterAll(async () => {
    await h.close();
    removeDir(h.dataDir);
  });

  it('subscribes its own listener to the sandbox at first start', async () => {
    const overview = await h.call('webhooks.list');
    const url = `http://127.0.0.1:${port}/webhooks`;
    expect(overview.listener).toMatchObject({
      listening: true,
      url,
      port,
      configuredPort: port,
      problem: null,
    });
    expect(overview.defaultUrl).toBe(url);
    expect(overview.subscriptions).toEqual([
      expect.objectContaining({ url, ours: true, target: 'listener', paused: false }),
    ]);
    expect(webhookSecrets()).toHaveLength(1);
  });

  it('records every event once and updates the queue: create, upload, review', async () => {
    const before = h.events.length;
    const id = await createOnService(h, 'document', 'dora@example.com');
    await customerUpdate(id, (row) => row.section === 'document', before);

    const inReview = customerUpdate(id, (row) => row.section === 'review');
    await client().documents.upload(id, {
      documentType: 'passport',
      fileName: 'passport.jpg',
      contentType: 'image/jpeg',
      bytes: jpeg(),
    });
    await inReview;

    const verified = customerUpdate(id, (row) => row.status === 'verified');
    await sandbox().advanceClock(61);
    await verified;
    const caughtUp = await settle();
    expect(caughtUp).toMatchObject({ recorded: 0, pausedSubscriptions: [], message: null });

    const onService = (await client().events.list({ limit: 100 })).events;
    expect(onService.map((e) => e.topic).sort()).toEqual([
      'customer_created',
      'customer_verification_document_approved',
      'customer_verification_document_needed',
      'customer_verification_document_uploaded',
      'customer_verified',
    ]);
    const log = await h.call('events.window', { offset: 0, limit: 100 });
    expect(log.total).toBe(onService.length);
    expect(log.rows.map((row) => row.id).sort()).toEqual(onService.map((e) => e.id).sort());
    for (const row of log.rows) {
      expect(row).toMatchObject({
        customerId: id,
        customerName: 'document Okafor',
        signatureVerified: true,
        duplicatesSeen: 0,
        processed: true,
      });
    }

    const queue = await h.call('queue.window', { section: 'verified', search: '', offset: 0, limit: 10 });
    expect(queue.rows.map((row) => row.id)).toEqual([id]);
    const detail = await h.call('customers.get', { id });
    expect(detail.history.map((change) => [change.status, change.source])).toEqual([
      ['document', 'event'],
      ['verified', 'event'],
    ]);
    expect(h.events.filter((e) => e.event === 'notification.show').map((e) => e.payload)).toEqual([
      {
        customerId: id,
        status: 'verified',
        title: 'Customer verified',
        body: 'document Okafor',
        desktop: true,
      },
    ]);
  });

  it('notifies status changes only while notifications are on', async () => {
    const before = h.events.length;
    const id = await createOnService(h, 'document', 'fraser@example.com');
    await customerUpdate(id, (row) => row.section === 'document', before);
    await h.call('settings.update', { notifications: false });
    const suspended = customerUpdate(id, (row) => row.status === 'suspended');
    await client().documents.upload(id, {
      documentType: 'passport',
      fileName: 'fraud.jpg',
      contentType: 'image/jpeg',
      bytes: jpeg(),
    });
    await sandbox().advanceClock(61);
    await suspended;
    await settle();
    const notices = h.events.filter((e) => e.event === 'notification.show').map((e) => e.payload);
    expect(notices).not.toContainEqual(expect.objectContaining({ customerId: id }));
    await h.call('settings.update', { notifications: true });
  });

  it('lists the event log newest first, filtered, with the topics seen, and exports it as JSON Lines', async () => {
    // A topic Vetted does not know, delivered and signed like any other: shown as it is, otherwise ignored.
    const customerId = randomUUID();
    const unknown = JSON.stringify({
      _links: { customer: { href: `${sandbox().baseUrl}/customers/${customerId}` } },
      id: randomUUID(),
      created: new Date().toISOString(),
      topic: 'customer_beneficial_owner_added',
      resourceId: customerId,
    });
    const [secret] = webhookSecrets();
    const reply = await send(port, {
      body: unknown,
      headers: { 'x-request-signature-sha-256': signBody(unknown, secret!) },
    });
    expect(reply.status).toBe(200);

    const all = await h.call('events.window', { offset: 0, limit: 500 });
    expect(all.topics).toEqual([...all.topics].sort());
    expect(all.topics).toEqual(
      expect.arrayContaining(['customer_beneficial_owner_added', 'customer_created', 'customer_suspended']),
    );
    expect(all.rows[0]).toMatchObject({
      topic: 'customer_beneficial_owner_added',
      customerId,
      customerName: null,
      processed: true,
    });
    const received = all.rows.map((row) => row.receivedAt);
    expect(received).toEqual([...received].sort().reverse());

    const page = await h.call('events.window', { offset: 1, limit: 2 });
    expect(page.rows.map((row) => row.id)).toEqual(all.rows.slice(1, 3).map((row) => row.id));
    expect(page.total).toBe(all.total);

    const created = await h.call('events.window', { topic: 'customer_created', offset: 0, limit: 50 });
    expect(created.total).toBe(2);
    expect(created.rows.every((row) => row.topic === 'customer_created')).toBe(true);
    const one = created.rows[0]!.customerId!;
    const ofOne = await h.call('events.window', {
      customerId: one,
      topic: 'customer_created',
      offset: 0,
      limit: 50,
    });
    expect(ofOne.rows.map((row) => row.customerId)).toEqual([one]);

    const exported = await h.call('events.export', { topic: 'customer_created' });
    expect(exported.count).toBe(2);
    expect(exported.jsonl.endsWith('\n')).toBe(true);
    expect(
      exported.jsonl
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual(created.rows);
    const everything = await h.call('events.export', {});
    expect(everything.count).toBe(all.total);
  });

  it('keeps refused requests in the security log, and counts them in the listener status', async () => {
    const forged = JSON.stringify({
      id: randomUUID(),
      topic: 'customer_verified',
      created: '',
      resourceId: 'x',
    });
    const reply = await send(port, {
      body: forged,
      headers: {
        'X-Request-Signature-SHA-256': signBody(forged, 'a guess'),
        'X-Forwarded-For': '203.0.113.7',
      },
    });
    expect(reply.status).toBe(401);
    const logged = await h.call('webhooks.securityLog', { limit: 10 });
    expect(logged.total).toBe(1);
    expect(logged.rows).toEqual([
      {
        at: expect.any(String),
        remoteAddress: '127.0.0.1',
        forwardedFor: '203.0.113.7',
        status: 401,
        reason: 'signature-mismatch',
      },
    ]);
    expect((await h.call('webhooks.list')).listener.rejected).toBe(1);
    expect(
      (await h.call('events.window', { offset: 0, limit: 500 })).rows.map((row) => row.id),
    ).not.toContain(JSON.parse(forged).id);
  });

  it('explains that the sandbox needs no tunnel when no public URL is set', async () => {
    expect(await h.call('webhooks.checkTunnel')).toEqual({
      ok: false,
      reason: 'not-set',
      message: expect.stringMatching(/sandbox delivers straight to the listener/),
      subscribed: null,
    });
  });

  it('never lets a webhook secret out: logs, outputs, pushed events and the data directory', async () => {
    const secrets = webhookSecrets();
    expect(secrets.length).toBeGreaterThan(0);
    const said = [...h.logLines, JSON.stringify(h.outputs), JSON.stringify(h.events)].join('\n');
    const files = everyFile(h.dataDir);
    for (const secret of secrets) {
      expect(said).not.toContain(secret);
      for (const file of files) expect(file.includes(secret)).toBe(false);
    }
  });
});
