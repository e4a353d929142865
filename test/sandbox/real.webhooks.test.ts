import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxProfile } from '#sandbox/index.ts';
import { type Harness, harness, type Receiver, receiver, subscribe } from './helpers.ts';
import { expected, PROFILES, sandboxes } from './profiles.setup.ts';

/**
 * real-service.md rows "documents", "GET /webhooks/{id}", "webhooks of a subscription", "event
 * retention" and "GET {base}/", on both profiles. Tests that move the clock far use a sandbox of their own.
 */
let hooks: Receiver;
const subscriptions = {} as Record<SandboxProfile, string>;
beforeAll(async () => {
  hooks = await receiver(200);
  for (const profile of PROFILES) subscriptions[profile] = await subscribe(sandboxes[profile], hooks.url);
});
afterAll(() => hooks.close());

const DAY = 24 * 3600;

interface Webhook {
  id: string;
  created: string;
  eventId: string;
}

async function webhooksOf(h: Harness, subscription: string, query = ''): Promise<Webhook[]> {
  const res = await h.api('GET', `/webhook-subscriptions/${subscription}/webhooks?limit=200${query}`);
  expect(res.status, res.text).toBe(200);
  return res.json._embedded.webhooks;
}

/** Runs `body` on a sandbox of its own, subscribed to the shared receiver; its token outlives the clock's jumps. */
async function withOwnSandbox(
  profile: SandboxProfile,
  body: (h: Harness, subscription: string) => Promise<void>,
): Promise<void> {
  const h = await harness({ profile, tokenTtlSeconds: 60 * DAY });
  try {
    await body(h, await subscribe(h, hooks.url));
  } finally {
    await h.close();
  }
}

describe.each(PROFILES)('documents (%s profile)', (profile) => {
  it(
    expected(profile, {
      interface: 'failureReason and allFailureReasons always together, the reason in the list',
      real: 'one reason: no allFailureReasons; several: failureReason missing from the list',
    }),
    async () => {
      const h = sandboxes[profile];
      const id = await h.createCustomer({ firstName: 'document' });
      const failed = (await h.upload(id, 'fail.jpg')).headers.location as string;
      await h.sandbox.advanceClock(60);
      const fraud = (await h.upload(id, 'fraud.jpg')).headers.location as string;
      await h.sandbox.advanceClock(60);
      const one = (await h.api('GET', failed)).json;
      const several = (await h.api('GET', fraud)).json;
      expect(one.failureReason).toBe('ScanNotReadable');
      expect(several.failureReason).toBe('ScanNameMismatch');
      const reasonsOf = (document: { allFailureReasons?: { reason: string }[] }) =>
        document.allFailureReasons?.map((entry) => entry.reason);
      expect(reasonsOf(one)).toEqual(expected(profile, { interface: ['ScanNotReadable'], real: undefined }));
      expect(reasonsOf(several)).toEqual(
        expected(profile, {
          interface: ['ScanNameMismatch', 'ScanDobMismatch'],
          real: ['ScanDobMismatch'],
        }),
      );
    },
  );
});

describe.each(PROFILES)('GET /webhooks/{id} (%s profile)', (profile) => {
  it(
    expected(profile, { interface: 'link retries, no accountId', real: 'link retry, plus accountId' }),
    async () => {
      const h = sandboxes[profile];
      await h.createCustomer();
      const [listed] = await webhooksOf(h, subscriptions[profile]);
      const webhook = (await h.api('GET', `/webhooks/${listed!.id}`)).json;
      const link = expected(profile, { interface: 'retries', real: 'retry' });
      const other = expected(profile, { interface: 'retry', real: 'retries' });
      expect(webhook._links[link].href).toBe(`${h.base}/webhooks/${listed!.id}/retries`);
      expect(webhook._links).not.toHaveProperty(other);
      const event = (await h.api('GET', `/events/${webhook.eventId}`)).json;
      if (profile === 'real')
        expect(event._links.account.href).toBe(`${h.base}/accounts/${webhook.accountId}`);
      else expect(webhook).not.toHaveProperty('accountId');
      const redelivered = await h.api('POST', webhook._links[link].href);
      expect(redelivered.status).toBe(201);
    },
  );
});

describe.each(PROFILES)('webhooks of a subscription (%s profile)', (profile) => {
  it(
    expected(profile, {
      interface: 'startDate / endDate are ignored: the whole list',
      real: 'filtered by startDate (inclusive) and endDate (exclusive; a date takes in its whole day)',
    }),
    () =>
      withOwnSandbox(profile, async (h, subscription) => {
        await h.createCustomer();
        await h.sandbox.advanceClock(2 * DAY);
        await h.createCustomer();
        const all = await webhooksOf(h, subscription);
        expect(all).toHaveLength(4);
        // Each customer's two webhooks may be a millisecond apart (the sandbox clock runs on): the newer
        // pair starts at its older one, all[1] (newest first).
        const [newer, older] = [all[1]!.created, all[3]!.created];
        const window = async (query: string) => (await webhooksOf(h, subscription, query)).length;
        const filtered = profile === 'real';
        expect(await window(`&startDate=${newer}`)).toBe(filtered ? 2 : 4);
        expect(await window(`&endDate=${newer}`)).toBe(filtered ? 2 : 4);
        expect(await window(`&endDate=${older.slice(0, 10)}`)).toBe(filtered ? 2 : 4);
        expect(await window(`&startDate=${newer.slice(0, 10)}`)).toBe(filtered ? 2 : 4);
        expect(await window(`&startDate=${older}&endDate=${newer}`)).toBe(filtered ? 2 : 4);
        const bad = await h.api('GET', `/webhook-subscriptions/${subscription}/webhooks?startDate=yesterday`);
        expect(bad.status).toBe(filtered ? 400 : 200);
        if (filtered) expect(bad.json._embedded.errors[0].path).toBe('/startDate');
      }),
  );
});

describe.each(PROFILES)('event retention (%s profile)', (profile) => {
  it(
    expected(profile, {
      interface: 'events are kept 30 days; webhook history is kept',
      real: 'events and webhook history are kept 30 days on the sandbox clock',
    }),
    () =>
      withOwnSandbox(profile, async (h, subscription) => {
        const old = await h.createCustomer();
        const [oldWebhook] = (await webhooksOf(h, subscription)).slice(-1);
        await h.sandbox.advanceClock(30 * DAY - 60);
        expect(await h.topicsOf(old)).toEqual(['customer_created', 'customer_verified']);
        expect((await h.api('GET', `/webhooks/${oldWebhook!.id}`)).status).toBe(200);
        await h.sandbox.advanceClock(60);
        await h.createCustomer();
        expect(await h.topicsOf(old)).toEqual([]);
        expect((await h.api('GET', `/events/${oldWebhook!.eventId}`)).status).toBe(404);
        const listed = await webhooksOf(h, subscription);
        const webhook = await h.api('GET', `/webhooks/${oldWebhook!.id}`);
        if (profile === 'real') {
          expect(listed).toHaveLength(2);
          expect(webhook.status).toBe(404);
          expect(webhook.json.code).toBe('notFound');
          expect((await h.api('POST', `/webhooks/${oldWebhook!.id}/retries`)).status).toBe(404);
        } else {
          expect(listed).toHaveLength(4);
          expect(webhook.status).toBe(200);
        }
      }),
  );
});

describe.each(PROFILES)('GET {base}/ (%s profile)', (profile) => {
  it(
    expected(profile, {
      interface: '404',
      real: 'the root resource with links account, customers, events, webhook-subscriptions',
    }),
    async () => {
      const h = sandboxes[profile];
      const res = await h.api('GET', '/');
      if (profile === 'interface') {
        expect(res.status).toBe(404);
        expect(res.json.code).toBe('NotFound');
        return;
      }
      expect(res.status).toBe(200);
      expect(Object.keys(res.json._links).sort()).toEqual([
        'account',
        'customers',
        'events',
        'webhook-subscriptions',
      ]);
      for (const name of ['customers', 'events', 'webhook-subscriptions'])
        expect((await h.api('GET', res.json._links[name].href)).status).toBe(200);
      expect((await h.api('GET', '/', { token: null })).status).toBe(401);
    },
  );
});
