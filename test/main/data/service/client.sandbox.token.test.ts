import { describe, expect, it } from 'vitest';
import { createServiceClient, ServiceError, TokenError } from '#main/data/service/index.ts';
import { PROFILES, person, setUpOn } from './client.sandbox.setup.ts';

describe.each(PROFILES)('token, on the %s profile', (profile) => {
  const setUp = setUpOn(profile);
  // Automatic tries the real form first: on the interface profile `/token` is a 404 and it falls back.
  const tokenPaths = profile === 'real' ? ['/token'] : ['/token', '/oauth/v2/token'];
  const learnedForm = profile === 'real' ? 'real' : 'document';

  it('one token for 500 calls', async () => {
    const { client, stats } = await setUp();
    const { id } = await client.customers.create(person());
    for (let batch = 0; batch < 25; batch++) {
      await Promise.all(Array.from({ length: 20 }, () => client.customers.get(id)));
    }
    const { tokensIssued, requests } = await stats();
    expect(requests['GET /customers/{id}']).toEqual({ '200': 500 });
    expect(tokensIssued).toBe(1);
  });

  it('renews a 2 s token before it runs out, without a 401', async () => {
    const { client, stats, advance, outcomes } = await setUp({ tokenTtlSeconds: 2 });
    const { id } = await client.customers.create(person());
    const first = await client.token.get();
    await advance(1.5);
    await client.customers.get(id);
    expect(await client.token.get()).not.toBe(first);
    await advance(1.5);
    await client.customers.get(id);
    expect((await stats()).tokensIssued).toBe(3);
    expect(await outcomes('GET /customers/{id}')).toEqual({ '200': 2 });
  });

  it('recovers from 401 ExpiredAccessToken with one renewal and one re-send', async () => {
    const { client, stats, sandbox, outcomes, logs } = await setUp();
    const { id } = await client.customers.create(person());
    // Only the service's clock moves: the client still believes in its token.
    await sandbox.advanceClock(3601);
    await expect(client.customers.get(id)).resolves.toMatchObject({ id });
    expect((await stats()).tokensIssued).toBe(2);
    expect(await outcomes('GET /customers/{id}')).toEqual({ '200': 1, '401': 1 });
    expect(logs.find((l) => l.status === 401)).toMatchObject({ code: 'ExpiredAccessToken' });
  });

  it('maps bad credentials to invalid_client', async () => {
    const { sandbox } = await setUp();
    const client = createServiceClient({
      baseUrl: sandbox.baseUrl,
      clientId: sandbox.clientId,
      clientSecret: 'nope',
    });
    const error = await client.token.get().catch((e: unknown) => e);
    await client.close();
    // Automatic tried `/token` first: on the interface profile it has none, so the document's form answered.
    expect(error).toBeInstanceOf(TokenError);
    expect(error).not.toBeInstanceOf(ServiceError);
    expect((error as TokenError).answer).toMatchObject({ status: 401, code: 'invalid_client' });
  });

  it('Automatic finds this profile’s form, and remembers it', async () => {
    const learned: string[] = [];
    const { sandbox, client, stats, sandboxLines } = await setUp(
      {},
      { tokenEndpoint: 'automatic', onTokenFormLearned: (form) => learned.push(form) },
    );
    await client.customers.list({ limit: 1 });
    await client.customers.list({ limit: 1 });
    const tokenLines = () => sandboxLines.filter((line) => / POST \/(token|oauth\/v2\/token) /.test(line));
    expect((await stats()).tokensIssued).toBe(1);
    expect(tokenLines().map((line) => line.split(' ')[3])).toEqual(tokenPaths);
    expect(learned).toEqual([learnedForm]);
    expect(client.token.dialect?.()).toBe(learnedForm);
    // Each profile refuses the other's name for the taxpayer number: these pass only in its own.
    const { id } = await client.customers.create(person('retry'));
    const retry = { ...person(), tin: '123-45-6789' };
    await expect(client.customers.retry(id, retry)).resolves.toMatchObject({ id, status: 'verified' });
    // A later start with what was learned asks that endpoint straight away.
    const again = createServiceClient({
      baseUrl: sandbox.baseUrl,
      clientId: sandbox.clientId,
      clientSecret: sandbox.clientSecret,
      rememberedTokenForm: learnedForm,
    });
    await again.token.get();
    await again.close();
    expect(tokenLines().map((line) => line.split(' ')[3])).toEqual([...tokenPaths, tokenPaths.at(-1)]);
  });
});
