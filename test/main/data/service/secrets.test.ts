import { inspect } from 'node:util';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { samplePerson } from '#test/support/person.ts';
import {
  CLIENT_SECRET,
  clientOf,
  customerBody,
  type FakeService,
  reply,
  startFakeService,
} from './fake-service.ts';

let fake: FakeService;
beforeEach(async () => {
  fake = await startFakeService();
});
afterEach(() => fake.close());

const secretInput = samplePerson('Jane', 'Doe', 'jane.secret@example.com', { tin: '987-65-4321' });

it('no log line and no error carries a token, the client secret or a request body', async () => {
  let calls = 0;
  fake.route('GET', '/customers/c1', (_req, res) => {
    calls++;
    if (calls % 3 === 1) return reply(res, 503, { code: 'ServiceUnavailable', message: 'Down.' });
    reply(res, 200, customerBody(fake.baseUrl, 'c1'));
  });
  fake.route('POST', '/customers/c1', (_req, res) =>
    reply(res, 400, {
      code: 'ValidationError',
      message: 'Validation error(s) present.',
      _embedded: { errors: [{ code: 'InvalidFormat', message: 'Ssn invalid.', path: '/tin' }] },
    }),
  );
  fake.route('GET', '/customers', () => {}); // stalls into a timeout
  fake.route('GET', '/customers/gone', (_req, _res, raw) => {
    raw.socket.destroy();
  });

  const { client, logs } = clientOf(fake, { timeouts: { headersMs: 50 }, retry: { maxAttempts: 2 } });
  const errors: unknown[] = [];
  const attempt = (p: Promise<unknown>) => p.catch((e: unknown) => errors.push(e));

  await attempt(client.customers.get('c1'));
  fake.expired.add(fake.tokens[0]!); // forces a renewal on the next call
  await attempt(client.customers.get('c1'));
  await attempt(client.customers.retry('c1', secretInput, { idempotencyKey: 'k-1' }));
  await attempt(client.customers.list({ email: secretInput.email }));
  await attempt(client.customers.get('gone'));
  await attempt(client.customers.create(secretInput, { signal: AbortSignal.abort() }));
  await client.close();

  const { client: badCredentials, logs: badLogs } = clientOf(fake, {
    clientSecret: `${CLIENT_SECRET}-wrong`,
  });
  await attempt(badCredentials.customers.get('c1'));
  await badCredentials.close();

  expect(fake.tokensIssued).toBe(2);
  expect(errors.length).toBeGreaterThanOrEqual(5);
  // The scenario went through renewal, retries, timeouts, resets and cancellation.
  expect(logs.map((entry) => entry.code)).toContain('ExpiredAccessToken');
  expect(logs.map((entry) => entry.msg).join('\n')).toMatch(
    /retrying[\s\S]*timeout[\s\S]*reset[\s\S]*aborted/,
  );
  const forbidden = [
    ...fake.tokens,
    CLIENT_SECRET,
    'Bearer',
    secretInput.tin,
    secretInput.email,
    'firstName',
  ];
  const written = [
    ...[...logs, ...badLogs].map((entry) => JSON.stringify(entry)),
    ...errors.map((error) => inspect(error, { depth: 8, showHidden: true })),
    ...errors.map((error) => JSON.stringify(error)),
  ];
  for (const line of written) {
    for (const secret of forbidden) expect(line).not.toContain(secret);
  }
});
