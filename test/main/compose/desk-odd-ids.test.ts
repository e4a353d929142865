import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isServiceId } from '#contract/service-id.ts';
import { secretNameOf } from '#main/features/webhooks/subscription-secrets.ts';
import { LOG_FILE_NAME } from '#main/ground/log/log-file.ts';
import { type DeskHarness, removeDir, startDesk } from '#test/support/desk/desk-harness.ts';
import { descriptionExample, type OddIdService, oddIdService } from '#test/support/desk/odd-id-service.ts';

// Ids are opaque (#35): any the description allows (a plain string) is listed, opened and acted on, or refused
// in words naming it. Generated from a fixed seed, so a failure names the same ids on every run.
// Each generated run is a few real calls through the desk; a loaded machine gets room beyond the default.
const LONG = 90_000;
const generated = (seed: number, numRuns: number) =>
  fc.sample(fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }).filter(isServiceId), {
    numRuns,
    seed,
  });
const EXAMPLE_IDS = [
  String(descriptionExample('BaseCustomer').id),
  String(descriptionExample('Document').id),
  String(descriptionExample('Event').resourceId), // upper case: opaque, kept as it is
  'FC451A7A-AE30-4404-AB95-E3553FCD733F',
  'https://api.dwolla.com/customers/1',
  'a/b?c#d%e f',
];
const unique = (ids: string[]) => [...new Set(ids)];
const UNUSABLE = ['', 'a\u0000b', '..', 'x'.repeat(256), 'half\ud800'];

describe('desk: ids the service gives are opaque', () => {
  let h: DeskHarness;
  const service = { subscriptions: new Map(), received: [] } as unknown as OddIdService;

  beforeAll(async () => {
    h = await startDesk(undefined, oddIdService(service));
  });
  afterAll(async () => {
    await h.close();
    removeDir(h.dataDir);
  });

  it(
    'imports, opens and acts on a customer under any id; names one no channel can carry',
    async () => {
      const ids = unique([...EXAMPLE_IDS, ...generated(35, 200)]);
      for (const [i, id] of ids.entries()) service.addCustomer(id, [`doc ${i} / ${id}`]);
      for (const id of UNUSABLE) service.addCustomer(id);
      const done = await h.call('customers.import');
      expect(done.message).toContain(`${ids.length} new`);
      expect(done.message).toContain('Vetted cannot use the customer id "": it is empty.');
      expect(done.message).toContain('"a\\u0000b": it holds control characters.');

      for (const [i, id] of ids.entries()) {
        expect((await h.call('customers.get', { id })).id, id).toBe(id);
        await h.call('notes.add', { customerId: id, text: `note ${i}` });
        const { entries } = await h.call('customers.timeline', { id, limit: 50 });
        expect(
          entries.some((entry) => entry.kind === 'note'),
          id,
        ).toBe(true);
        const listed = await h.call('documents.list', { customerId: id });
        expect(
          listed.documents.map((doc) => doc.id),
          id,
        ).toEqual([`doc ${i} / ${id}`]);
        expect((await h.call('claims.get', { customerId: id })).customerId).toBe(id);
      }
      const listed: string[] = [];
      for (let offset = 0; offset < ids.length; offset += 200) {
        const window = await h.call('queue.window', { section: 'all', search: '', offset, limit: 200 });
        listed.push(...window.rows.map((row) => row.id));
      }
      expect(listed.sort()).toEqual([...ids].sort());
      for (const id of UNUSABLE) {
        await expect(h.call('customers.get', { id }), JSON.stringify(id)).rejects.toMatchObject({
          code: 'BadInput',
          message: expect.stringMatching(/^Vetted cannot use the customer id /),
        });
      }
    },
    LONG,
  );

  it(
    'opens an event under any id, caught up from the service',
    async () => {
      const ids = unique(generated(36, 200)).map((id, i) => [id, `customer of ${i}`] as const);
      for (const [id, customerId] of ids) {
        service.addCustomer(customerId);
        service.addEvent(id, customerId);
      }
      await h.call('webhooks.catchUp');
      for (const [id] of ids) {
        const detail = await h.call('events.detail', { id });
        expect(detail.deliveryId, id).toBe(id);
        expect(detail.payloadProblem, id).toBeNull();
      }
    },
    LONG,
  );

  it(
    'subscribes, lists, pauses, resumes and deletes a subscription under any id, and keeps its secret',
    async () => {
      for (const [i, id] of unique([...EXAMPLE_IDS, ...generated(37, 80)]).entries()) {
        service.nextSubscriptionId(id);
        const made = await h.call('webhooks.subscribe', { url: `https://hooks.example/${i}` });
        expect(made, id).toMatchObject({ id, ours: true });
        expect((await h.call('webhooks.list')).subscriptions?.some((one) => one.id === id && one.ours)).toBe(
          true,
        );
        expect((await h.call('webhooks.setPaused', { id, paused: true })).subscription.paused).toBe(true);
        expect((await h.call('webhooks.setPaused', { id, paused: false })).redelivered).toBe(0);
        expect(await h.call('webhooks.delete', { id })).toEqual({ id });
        expect(service.subscriptions.has(id)).toBe(false);
        expect(readVaultNames(h).includes(secretNameOf(id)), id).toBe(false);
      }
    },
    LONG,
  );

  it('lists every other subscription beside one whose id no channel can carry, and names it', async () => {
    service.subscriptions.set('bad\u0001id', { url: 'https://elsewhere.example/', paused: true });
    const overview = await h.call('webhooks.list');
    expect(overview.subscriptions).not.toBeNull();
    expect(overview.problem).toBe(
      'Vetted cannot use the subscription id "bad\\u0001id": it holds control characters. Manage it on the service itself.',
    );
    const caughtUp = await h.call('webhooks.catchUp');
    expect(caughtUp.message ?? '').not.toMatch(/went wrong/);
    service.subscriptions.delete('bad\u0001id');
  });

  it('writes an unexpected failure to vetted.log, scrubbed, as the words on screen promise', async () => {
    const client = h.desk.connection().client();
    const list = client.subscriptions.list;
    client.subscriptions.list = () => Promise.reject(new TypeError('odd-client-secret-value broke'));
    try {
      const overview = await h.call('webhooks.list');
      expect(overview.problem).toBe('Something unexpected went wrong; details are in the log.');
    } finally {
      client.subscriptions.list = list;
    }
    const logged = readFileSync(path.join(h.dataDir, LOG_FILE_NAME), 'utf8').split('\n');
    const line = logged.find((one) => one.includes('listing the subscriptions failed unexpectedly'));
    expect(line).toBeDefined();
    expect(JSON.parse(line as string)).toMatchObject({
      level: 'error',
      error: 'TypeError: [redacted] broke',
    });
  });
});

function readVaultNames(h: DeskHarness): string[] {
  return Object.keys(JSON.parse(readFileSync(path.join(h.dataDir, 'vault.json'), 'utf8')).secrets);
}
