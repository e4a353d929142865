import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '#sandbox/index.ts';
import { until } from '../support/poll.ts';
import { type Harness, HOUR, harness, holdRequests, type Receiver, receiver, subscribe } from './helpers.ts';

/** `--data PATH`: a restart on the same file resumes where the sandbox stopped. */
const dir = mkdtempSync(path.join(tmpdir(), 'vetted-sandbox-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const open: (Harness | Receiver)[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

let files = 0;
const freshFile = () => path.join(dir, `sandbox-${++files}.db`);

async function start(data: string, options: Parameters<typeof harness>[0] = {}): Promise<Harness> {
  const h = await harness({ data, tokenTtlSeconds: 30 * 24 * HOUR, ...options });
  open.push(h);
  return h;
}

async function stop(h: Harness): Promise<void> {
  open.splice(open.indexOf(h), 1);
  await h.close();
}

async function hooks(respond: Parameters<typeof receiver>[0]): Promise<Receiver> {
  const r = await receiver(respond);
  open.push(r);
  return r;
}

describe('restart on the same file', () => {
  it('keeps credentials, customers, documents, events and subscriptions', async () => {
    const file = freshFile();
    const first = await start(file);
    const customer = await first.createCustomer({ firstName: 'document' });
    const document = String((await first.upload(customer)).headers.location)
      .split('/')
      .at(-1);
    const sub = await subscribe(first, 'https://keep.example/h');
    const events = (await first.api('GET', '/events')).json.total;
    const { clientId, clientSecret } = first.sandbox;
    await stop(first);

    const second = await start(file);
    expect(second.sandbox.clientId).toBe(clientId);
    expect(second.sandbox.clientSecret).toBe(clientSecret);
    expect((await second.customer(customer)).json.status).toBe('document');
    expect((await second.api('GET', `/documents/${document}`)).json.status).toBe('pending');
    expect((await second.api('GET', `/webhook-subscriptions/${sub}`)).json.url).toBe(
      'https://keep.example/h',
    );
    expect((await second.api('GET', '/events')).json.total).toBe(events);
    // Resource links follow the new address.
    expect((await second.customer(customer)).json._links.self.href.startsWith(second.base)).toBe(true);
  });

  it('a token issued before the restart is still good, and the clock does not go back', async () => {
    const file = freshFile();
    const first = await start(file);
    await first.sandbox.advanceClock(5 * HOUR);
    const clock = Date.parse((await first.api('GET', '/sandbox/clock')).json.now);
    await stop(first);
    const second = await start(file);
    expect((await second.api('GET', '/customers', { token: first.token })).status).toBe(200);
    expect(Date.parse((await second.api('GET', '/sandbox/clock')).json.now)).toBeGreaterThanOrEqual(clock);
  });

  it('a pending document review runs after the restart', async () => {
    const file = freshFile();
    const first = await start(file, { reviewDelayMs: 60_000 });
    const customer = await first.createCustomer({ firstName: 'document' });
    await first.upload(customer, 'passport.jpg');
    await stop(first);
    const second = await start(file, { reviewDelayMs: 60_000 });
    await second.sandbox.advanceClock(60);
    expect((await second.customer(customer)).json.status).toBe('verified');
  });

  it('a pending webhook retry resumes on the new instance', async () => {
    const file = freshFile();
    const receiverOf = await hooks(500);
    const first = await start(file);
    const sub = await subscribe(first, receiverOf.url, 'persisted-secret');
    await first.createCustomer();
    await first.sandbox.advanceClock(0);
    expect(receiverOf.received).toHaveLength(2);
    await stop(first);

    receiverOf.respondWith(200);
    const second = await start(file);
    await second.sandbox.advanceClock(0.25 * HOUR);
    expect(receiverOf.received).toHaveLength(4);
    const webhooks = (await second.api('GET', `/webhook-subscriptions/${sub}/webhooks`)).json._embedded
      .webhooks;
    for (const webhook of webhooks) {
      expect(
        webhook.attempts.map((a: { response: { statusCode: number } }) => a.response.statusCode),
      ).toEqual([500, 200]);
    }
  });

  it('a delivery in flight when the sandbox stops is sent after the restart', async () => {
    const file = freshFile();
    const receiverOf = await hooks(holdRequests);
    const first = await start(file);
    await subscribe(first, receiverOf.url);
    await first.createCustomer();
    await until(() => receiverOf.open() === 2, 'both deliveries in flight');
    await stop(first); // abandons both requests in flight
    receiverOf.respondWith(200);
    const second = await start(file);
    await second.sandbox.advanceClock(0);
    const ids = receiverOf.received.map((w) => w.event.id);
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(2); // the same two events, sent again
  });

  it(':memory: starts empty, with fresh credentials each time', async () => {
    const a = await startSandbox({ data: ':memory:' });
    const b = await startSandbox({ data: ':memory:' });
    try {
      expect(a.clientSecret).not.toBe(b.clientSecret);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('sealed secrets: the data file never holds the client secret or a webhook secret in clear', async () => {
    const { readFileSync } = await import('node:fs');
    const file = freshFile();
    const secrets = {
      seal: (plain: string) => `sealed:${Buffer.from(plain).toString('base64')}`,
      open: (sealed: string) => Buffer.from(sealed.slice(7), 'base64').toString(),
    };
    const first = await start(file, { secrets });
    await subscribe(first, 'https://sealed.example/h', 'webhook-secret-in-clear');
    const { clientSecret } = first.sandbox;
    await stop(first);
    const bytes = readFileSync(file).toString('latin1');
    expect(bytes).not.toContain(clientSecret);
    expect(bytes).not.toContain('webhook-secret-in-clear');
    const second = await start(file, { secrets });
    expect(second.sandbox.clientSecret).toBe(clientSecret);
  });
});
