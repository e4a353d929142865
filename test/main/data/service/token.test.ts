import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServiceError, TokenError } from '#main/data/service/index.ts';
import { renewalMarginMs } from '#main/data/service/token.ts';
import {
  CLIENT_ID,
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
  fake.route('GET', '/customers/c1', (_req, res) => reply(res, 200, customerBody(fake.baseUrl, 'c1')));
});
afterEach(() => fake.close());

function fakeClock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('token manager', () => {
  it('asks with the client credentials grant as a JSON body', async () => {
    const { client } = clientOf(fake);
    await client.token.get();
    await client.close();
    const [request] = fake.received;
    expect(request?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request!.body.toString())).toEqual({
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      grant_type: 'client_credentials',
    });
  });

  it('shares one token, and one in-flight request, among concurrent callers', async () => {
    const { client } = clientOf(fake);
    const customers = await Promise.all(Array.from({ length: 50 }, () => client.customers.get('c1')));
    for (let i = 0; i < 50; i++) await client.customers.get('c1');
    await client.close();
    expect(customers).toHaveLength(50);
    expect(fake.tokensIssued).toBe(1);
    const bearers = new Set(
      fake.received.filter((r) => r.path === '/customers/c1').map((r) => r.headers.authorization),
    );
    expect(bearers).toEqual(new Set([`Bearer ${fake.tokens[0]}`]));
  });

  it('reports scope and expiry, and forgets the token when invalidated', async () => {
    const clock = fakeClock();
    const { client } = clientOf(fake, { now: clock.now });
    expect(client.token.info()).toBeNull();
    await client.token.get();
    expect(client.token.info()).toEqual({ scope: ['Send', 'Funding'], expiresAt: clock.now() + 3_600_000 });
    client.token.invalidate();
    expect(client.token.info()).toBeNull();
    await client.token.get();
    await client.close();
    expect(fake.tokensIssued).toBe(2);
  });

  it('renews about 60 s before expiry, not before', async () => {
    const clock = fakeClock();
    const { client } = clientOf(fake, { now: clock.now });
    const first = await client.token.get();
    clock.advance(3_600_000 - 61_000);
    expect(await client.token.get()).toBe(first);
    clock.advance(2_000);
    const second = await client.token.get();
    await client.close();
    expect(second).not.toBe(first);
    expect(fake.tokensIssued).toBe(2);
  });

  it('renews short-lived tokens at half their life', async () => {
    expect(renewalMarginMs(3_600_000, 60_000)).toBe(60_000);
    expect(renewalMarginMs(2_000, 60_000)).toBe(1_000);
    fake.tokenTtlSeconds = 2;
    const clock = fakeClock();
    const { client } = clientOf(fake, { now: clock.now });
    await client.customers.get('c1');
    clock.advance(900);
    await client.customers.get('c1');
    expect(fake.tokensIssued).toBe(1);
    clock.advance(200);
    await client.customers.get('c1');
    await client.close();
    expect(fake.tokensIssued).toBe(2);
  });

  it.each(['ExpiredAccessToken', 'InvalidAccessToken'])(
    'on 401 %s renews once and sends once more',
    async (code) => {
      const { client } = clientOf(fake);
      await client.customers.get('c1');
      if (code === 'ExpiredAccessToken') fake.expired.add(fake.tokens[0]!);
      else
        fake.route('GET', '/customers/c1', (req, res) => {
          // The first token becomes unknown to the service (as after a restart of it).
          if (req.headers.authorization === `Bearer ${fake.tokens[0]}`)
            return reply(res, 401, { code, message: 'x' });
          reply(res, 200, customerBody(fake.baseUrl, 'c1'));
        });
      const customer = await client.customers.get('c1');
      await client.close();
      expect(customer.id).toBe('c1');
      expect(fake.tokensIssued).toBe(2);
      expect(fake.count('GET', '/customers/c1')).toBe(3);
    },
  );

  it('renews once for many callers rejected together', async () => {
    const { client } = clientOf(fake);
    await client.customers.get('c1');
    fake.expired.add(fake.tokens[0]!);
    await Promise.all(Array.from({ length: 20 }, () => client.customers.get('c1')));
    await client.close();
    expect(fake.tokensIssued).toBe(2);
  });

  it('gives up after one renewal when the new token is refused too', async () => {
    fake.route('GET', '/customers/c1', (_req, res) =>
      reply(res, 401, { code: 'InvalidAccessToken', message: 'x' }),
    );
    const { client } = clientOf(fake);
    const error = await client.customers.get('c1').catch((e: unknown) => e);
    await client.close();
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).is('invalidaccesstoken')).toBe(true);
    expect(fake.tokensIssued).toBe(2);
    expect(fake.count('GET', '/customers/c1')).toBe(2);
  });

  it('does not renew on other 401s', async () => {
    fake.route('GET', '/customers/c1', (_req, res) =>
      reply(res, 401, { code: 'InvalidCredentials', message: 'x' }),
    );
    const { client } = clientOf(fake);
    await expect(client.customers.get('c1')).rejects.toMatchObject({
      status: 401,
      code: 'InvalidCredentials',
    });
    await client.close();
    expect(fake.tokensIssued).toBe(1);
    expect(fake.count('GET', '/customers/c1')).toBe(1);
  });

  it('maps bad credentials to a TokenError, shared by callers until asked afresh', async () => {
    const { client } = clientOf(fake, { clientSecret: 'wrong' });
    const error = await client.customers.get('c1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenError);
    expect(error).not.toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ status: 401, code: 'invalid_client' });
    await expect(client.token.get()).rejects.toBe(error);
    expect(fake.count('POST', '/oauth/v2/token')).toBe(1);
    // "Test connection" (and new settings) ask again at once.
    client.token.invalidate();
    await expect(client.token.get()).rejects.toMatchObject({ code: 'invalid_client' });
    await client.close();
    expect(fake.count('POST', '/oauth/v2/token')).toBe(2);
    expect(fake.count('GET', '/customers/c1')).toBe(0);
  });

  it('retries the token request on 503 (issuing a token is safe to repeat)', async () => {
    let failures = 2;
    fake.route('POST', '/oauth/v2/token', (req, res) =>
      failures-- > 0
        ? reply(res, 503, { code: 'ServiceUnavailable', message: 'Try later.' })
        : fake.issueToken(req, res),
    );
    const { client, sleeps } = clientOf(fake);
    const token = await client.token.get();
    await client.close();
    expect(token).toBe(fake.tokens[0]);
    expect(fake.count('POST', '/oauth/v2/token')).toBe(3);
    expect(sleeps).toHaveLength(2);
  });

  it('rejects a token answer it cannot read', async () => {
    fake.route('POST', '/oauth/v2/token', (_req, res) =>
      reply(res, 200, { access_token: '', expires_in: 'soon' }),
    );
    const { client } = clientOf(fake);
    await expect(client.token.get()).rejects.toMatchObject({ code: 'InvalidResponse', status: 200 });
    await client.close();
  });
});
