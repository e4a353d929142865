// The hub's service client on a network that goes silent or slow, through the tests' fault proxy: a request
// whose connection is black-holed (accepted, then nothing: no answer, no reset) hits its deadline and is
// retried only as the client's rules allow, never waiting for ever; once the network is back, the next
// request goes through on a fresh connection. The wait for an answer is the client's `headersMs` (30 s in
// production: http.ts defaultTimeouts), short here.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type FaultProxy, startFaultProxy, throughProxy } from '#test/support/network/fault-proxy.ts';
import { samplePerson } from '#test/support/person.ts';
import { clientOf, customerBody, type FakeService, reply, startFakeService } from './fake-service.ts';

let fake: FakeService;
let proxy: FaultProxy;
let baseUrl: string;
beforeEach(async () => {
  fake = await startFakeService();
  proxy = await startFaultProxy({ host: '127.0.0.1', port: Number(new URL(fake.baseUrl).port) });
  baseUrl = throughProxy(fake.baseUrl, proxy).replace(/\/$/, '');
  fake.route('GET', '/customers/c1', (_req, res) => reply(res, 200, customerBody(baseUrl, 'c1')));
  fake.route('POST', '/customers', (_req, res) =>
    reply(res, 201, undefined, { Location: `${baseUrl}/customers/new-1` }),
  );
});
afterEach(async () => {
  await proxy.close();
  await fake.close();
});

function client() {
  return clientOf(fake, { baseUrl, timeouts: { headersMs: 300 }, retry: { maxAttempts: 2 } });
}

it('black-holed: a GET times out, is sent once more on a new connection, and fails as a timeout; then works again', async () => {
  const { client: service, sleeps } = client();
  await expect(service.customers.get('c1')).resolves.toMatchObject({ id: 'c1' });
  const before = {
    gets: fake.count('GET', '/customers/c1'),
    accepted: proxy.accepted(),
    sleeps: sleeps.length,
  };

  proxy.blackHole();
  await expect(service.customers.get('c1')).rejects.toMatchObject({ name: 'NetworkError', kind: 'timeout' });
  // Nothing reached the service; the retry went out on a connection of its own (the silent one was dropped).
  expect(fake.count('GET', '/customers/c1')).toBe(before.gets);
  expect(sleeps.length - before.sleeps).toBe(1);
  expect(proxy.accepted()).toBeGreaterThan(before.accepted);
  expect(proxy.swallowed()).toBeGreaterThan(0);

  proxy.pass();
  await expect(service.customers.get('c1')).resolves.toMatchObject({ id: 'c1' });
  await service.close();
});

it('black-holed: a create is not sent twice, and fails as a timeout the caller may retry', async () => {
  const { client: service, sleeps } = client();
  await expect(service.customers.get('c1')).resolves.toMatchObject({ id: 'c1' });

  proxy.blackHole();
  await expect(
    service.customers.create(samplePerson('Jane', 'Doe', 'jane@example.com')),
  ).rejects.toMatchObject({
    kind: 'timeout',
    retryable: true,
  });
  expect(sleeps).toEqual([]);
  expect(fake.count('POST', '/customers')).toBe(0);
  await service.close();
});

it('slowed: requests still succeed, each the slower', async () => {
  const { client: service } = client();
  await expect(service.customers.get('c1')).resolves.toMatchObject({ id: 'c1' });
  const delayMs = 100;
  proxy.delay(delayMs);
  const started = performance.now();
  await expect(service.customers.get('c1')).resolves.toMatchObject({ id: 'c1' });
  expect(performance.now() - started).toBeGreaterThanOrEqual(2 * delayMs);
  await service.close();
});
