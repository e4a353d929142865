import { afterEach, describe, expect, it } from 'vitest';
import { TokenError } from '../../main/service/index.ts';
import {
  CLIENT_ID,
  CLIENT_SECRET,
  clientOf,
  customerBody,
  type FakeService,
  type FakeTokenForm,
  reply,
  startFakeService,
} from './fake-service.ts';

let fake: FakeService;
afterEach(() => fake.close());

async function serviceWith(tokenForm: FakeTokenForm) {
  fake = await startFakeService({ tokenForm });
  fake.route('GET', '/customers/c1', (_req, res) => reply(res, 200, customerBody(fake.baseUrl, 'c1')));
  return fake;
}

/** A client on Automatic that records the form it learns. */
function automatic(overrides: Parameters<typeof clientOf>[1] = {}) {
  const learned: string[] = [];
  const { client } = clientOf(fake, {
    tokenEndpoint: 'automatic',
    onTokenFormLearned: (form) => learned.push(form),
    ...overrides,
  });
  return { client, learned };
}

const tokenPaths = () =>
  fake.received.filter((r) => r.method === 'POST' && /token$/.test(r.path)).map((r) => r.path);

describe('the token endpoint of today’s real service', () => {
  it('asks with a form body and HTTP Basic credentials; Bearer and no scope are fine', async () => {
    await serviceWith('real');
    const { client } = clientOf(fake, { tokenEndpoint: 'real' });
    await expect(client.customers.get('c1')).resolves.toMatchObject({ id: 'c1' });
    expect(client.token.info()?.scope).toEqual([]);
    await client.close();
    const [request] = fake.received;
    expect(request?.path).toBe('/token');
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request?.body.toString()).toBe('grant_type=client_credentials');
    const basic = Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64');
    expect(request?.headers.authorization).toBe(`Basic ${basic}`);
  });

  it('Automatic tries the real form first and remembers it', async () => {
    await serviceWith('real');
    const { client, learned } = automatic();
    await client.customers.get('c1');
    await client.close();
    expect(tokenPaths()).toEqual(['/token']);
    expect(learned).toEqual(['real']);
  });

  it('Automatic falls back on the document’s form on 404, and on 405', async () => {
    await serviceWith('document');
    fake.route('POST', '/token', (_req, res) =>
      reply(res, 405, { code: 'MethodNotAllowed', message: 'No.' }),
    );
    const { client, learned } = automatic();
    await client.customers.get('c1');
    await client.close();
    expect(tokenPaths()).toEqual(['/token', '/oauth/v2/token']);
    expect(learned).toEqual(['document']);
  });

  it('Automatic starts with the remembered form, and probes again when it later 404s', async () => {
    await serviceWith('real');
    const { client, learned } = automatic({ rememberedTokenForm: 'document' });
    await client.customers.get('c1');
    await client.close();
    expect(tokenPaths()).toEqual(['/oauth/v2/token', '/token']);
    expect(learned).toEqual(['real']);
  });

  it('a forced form is used as it is, with no fallback', async () => {
    await serviceWith('real');
    const { client } = clientOf(fake, { tokenEndpoint: 'document' });
    const error = await client.token.get().catch((e: unknown) => e);
    await client.close();
    expect(error).toBeInstanceOf(TokenError);
    expect(error).toMatchObject({ status: 404 });
    expect(tokenPaths()).toEqual(['/oauth/v2/token']);
  });

  it('refused credentials on the real form are not retried on the other form', async () => {
    await serviceWith('real');
    const { client } = clientOf(fake, { tokenEndpoint: 'automatic', clientSecret: 'wrong' });
    const error = await client.token.get().catch((e: unknown) => e);
    await client.close();
    expect(error).toMatchObject({ name: 'TokenError', status: 401, code: 'invalid_client' });
    expect(tokenPaths()).toEqual(['/token']);
  });

  it('neither endpoint there: the real form’s answer is the one reported', async () => {
    await serviceWith('real');
    fake.route('POST', '/token', (_req, res) => reply(res, 404, { code: 'notFound', message: 'No.' }));
    const { client } = clientOf(fake, { tokenEndpoint: 'automatic' });
    const error = await client.token.get().catch((e: unknown) => e);
    await client.close();
    expect(error).toMatchObject({ name: 'TokenError', status: 404, code: 'notFound' });
    expect(tokenPaths()).toEqual(['/token', '/oauth/v2/token']);
  });

  it('one token request however many callers wait, and none again while it is valid', async () => {
    await serviceWith('real');
    const { client } = clientOf(fake, { tokenEndpoint: 'automatic' });
    await Promise.all(Array.from({ length: 30 }, () => client.customers.get('c1')));
    for (let i = 0; i < 10; i++) await client.customers.get('c1');
    await client.close();
    expect(fake.tokensIssued).toBe(1);
    expect(tokenPaths()).toEqual(['/token']);
  });

  it('a token_type other than bearer (in any case) is refused', async () => {
    await serviceWith('real');
    fake.route('POST', '/token', (_req, res) =>
      reply(res, 200, { access_token: 'x', token_type: 'mac', expires_in: 3600 }),
    );
    const { client } = clientOf(fake, { tokenEndpoint: 'real' });
    await expect(client.token.get()).rejects.toMatchObject({ name: 'TokenError', code: 'InvalidResponse' });
    await client.close();
  });
});
