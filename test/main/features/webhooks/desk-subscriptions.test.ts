import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SUBSCRIPTIONS } from '#contract/webhooks.ts';
import { openFileKeyVault } from '#main/ground/vault/vault.ts';
import { createOnService, type DeskHarness, removeDir, startDesk } from '#test/support/desk/desk-harness.ts';
import { dataDirWithPort, freePort, nextEvent } from './helpers.ts';

/** Managing the application's subscriptions through the desk, against the built-in sandbox. */
describe('desk: webhook subscriptions', () => {
  let h: DeskHarness;
  let port: number;
  const sandbox = () => h.desk.connection().sandbox!;
  const heldSecrets = () => {
    const vault = openFileKeyVault({ dir: h.dataDir });
    return vault
      .names()
      .filter((name) => name.startsWith('webhookSecret:'))
      .map((name) => vault.get(name)!);
  };
  const ours = async () => {
    const { subscriptions } = await h.call('webhooks.list');
    return subscriptions!.find((s) => s.ours && s.target === 'listener')!;
  };
  /** Events of one customer in the journal, after the deliveries due now were made. */
  const eventsOf = async (customerId: string) => {
    await sandbox().advanceClock(0);
    return (await h.call('events.window', { customerId, offset: 0, limit: 50 })).rows;
  };
  // Refused at once (nothing listens on port 1), so failed deliveries to them cost nothing.
  const elsewhere = (n: number) => `https://127.0.0.1:1/webhooks/${n}`;

  beforeAll(async () => {
    port = await freePort();
    h = await startDesk(dataDirWithPort(port));
    await nextEvent(h, 'webhooks.caughtUp');
  });
  afterAll(async () => {
    await h.close();
    removeDir(h.dataDir);
  });

  it('refuses, in words, URLs the service could not deliver to', async () => {
    for (const url of [
      'http://hooks.example.com/webhooks',
      'ftp://hooks.example.com/webhooks',
      'https://user:password@hooks.example.com/webhooks',
      'not a url',
    ]) {
      await expect(h.call('webhooks.subscribe', { url })).rejects.toMatchObject({
        code: 'InvalidUrl',
        fields: { '/url': expect.any(String) },
      });
    }
    await expect(h.call('webhooks.subscribe', { url: 'http://hooks.example.com/x' })).rejects.toMatchObject({
      message: expect.stringMatching(/https/),
    });
    await expect(h.call('webhooks.subscribe', {})).rejects.toMatchObject({ code: 'AlreadySubscribed' });
  });

  it('creates each with a fresh random secret kept in the vault, at most 10, the limit explained', async () => {
    for (let n = 1; n < MAX_SUBSCRIPTIONS; n++) {
      const created = await h.call('webhooks.subscribe', { url: elsewhere(n) });
      expect(created).toEqual({
        id: expect.any(String),
        url: elsewhere(n),
        created: expect.any(String),
        paused: false,
        ours: true,
        target: 'elsewhere',
      });
    }
    const secrets = heldSecrets();
    expect(secrets).toHaveLength(MAX_SUBSCRIPTIONS);
    expect(new Set(secrets).size).toBe(MAX_SUBSCRIPTIONS);
    for (const secret of secrets) expect(Buffer.from(secret, 'base64url')).toHaveLength(32);

    const refused = h.call('webhooks.subscribe', { url: elsewhere(99) });
    await expect(refused).rejects.toMatchObject({
      code: 'TooManySubscriptions',
      message: expect.stringMatching(/at most 10 webhook subscriptions.*Delete one/),
    });
    await expect(refused).rejects.not.toMatchObject({
      message: expect.stringMatching(/MaxNumberOfResources/),
    });
    expect((await h.call('webhooks.list')).subscriptions).toHaveLength(MAX_SUBSCRIPTIONS);
  });

  it('pauses and resumes; resuming redelivers what the service kept unsent meanwhile', async () => {
    const listener = await ours();
    const paused = await h.call('webhooks.setPaused', { id: listener.id, paused: true });
    expect(paused).toEqual({ subscription: { ...listener, paused: true }, redelivered: 0 });

    const id = await createOnService(h, 'Vera', 'vera@example.com');
    expect(await eventsOf(id)).toEqual([]);

    const resumed = await h.call('webhooks.setPaused', { id: listener.id, paused: false });
    expect(resumed).toEqual({ subscription: { ...listener, paused: false }, redelivered: 2 });
    const delivered = await eventsOf(id);
    expect(delivered.map((row) => row.topic).sort()).toEqual(['customer_created', 'customer_verified']);
    expect(delivered.every((row) => row.signatureVerified && row.duplicatesSeen === 0)).toBe(true);
  });

  it('deletes a subscription and forgets its secret', async () => {
    const { subscriptions } = await h.call('webhooks.list');
    for (const subscription of subscriptions!.filter((s) => s.target === 'elsewhere')) {
      expect(await h.call('webhooks.delete', { id: subscription.id })).toEqual({ id: subscription.id });
    }
    expect((await h.call('webhooks.list')).subscriptions).toEqual([await ours()]);
    expect(heldSecrets()).toHaveLength(1);
  });

  it('takes a URL for an opaque id (no such subscription), changing nothing; deletes the listener’s own subscription whole, and subscribes again', async () => {
    const listener = await ours();
    for (const id of [listener.url, `${sandbox().baseUrl}/webhook-subscriptions/${listener.id}`]) {
      // An id, percent-encoded in one path segment: never followed as a link to another subscription.
      await expect(h.call('webhooks.delete', { id })).resolves.toEqual({ id });
    }
    await expect(h.call('webhooks.delete', { id: '..' })).rejects.toMatchObject({
      code: 'BadInput',
      message: 'Vetted cannot use the subscription id "..": a web address cannot name it.',
    });
    expect(await ours()).toEqual(listener);
    expect(heldSecrets()).toHaveLength(1);

    expect(await h.call('webhooks.delete', { id: listener.id })).toEqual({ id: listener.id });
    expect((await h.call('webhooks.list')).subscriptions).toEqual([]);
    expect(heldSecrets()).toHaveLength(0);
    await h.call('webhooks.subscribe', {});
    const renewed = await ours();
    expect(renewed.id).not.toBe(listener.id);
    expect(renewed.url).toBe(listener.url);
    expect((await h.call('webhooks.list')).subscriptions).toHaveLength(1);
    expect(heldSecrets()).toHaveLength(1);
    const id = await createOnService(h, 'Wren', 'wren@example.com');
    expect((await eventsOf(id)).map((row) => row.signatureVerified)).toEqual([true, true]);
  });

  it('listens again on a new port, and the sandbox subscription follows it', async () => {
    const before = await ours();
    const newPort = await freePort();
    await h.call('settings.update', { webhookPort: newPort });
    const { listener: status } = await h.call('webhooks.list');
    expect(status).toMatchObject({ listening: true, port: newPort, configuredPort: newPort, problem: null });
    const after = await ours();
    expect(after.url).toBe(`http://127.0.0.1:${newPort}/webhooks`);
    expect(after.id).not.toBe(before.id);
    expect((await h.call('webhooks.list')).subscriptions).toHaveLength(1);
    expect(heldSecrets()).toHaveLength(1);

    const id = await createOnService(h, 'Nell', 'nell@example.com');
    expect((await eventsOf(id)).map((row) => row.signatureVerified)).toEqual([true, true]);
  });

  it('listens on another port when the configured one is taken, and says so', async () => {
    const taken = createServer();
    const takenPort = await freePort();
    await new Promise<void>((resolve) => taken.listen(takenPort, '127.0.0.1', resolve));
    try {
      await h.call('settings.update', { webhookPort: takenPort });
      const status = await h.call('webhooks.listen');
      expect(status.listening).toBe(true);
      expect(status.configuredPort).toBe(takenPort);
      expect(status.port).not.toBe(takenPort);
      expect(status.problem).toMatch(new RegExp(`Port ${takenPort} is used by another program`));
      expect((await ours()).url).toBe(status.url);
      const id = await createOnService(h, 'Otto', 'otto@example.com');
      expect(await eventsOf(id)).toHaveLength(2);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
