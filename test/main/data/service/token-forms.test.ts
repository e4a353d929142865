import { afterEach, describe, expect, it } from 'vitest';
import { customerBodyIn } from '#main/data/service/customers.ts';
import { type CustomerInput, ServiceError, TokenError } from '#main/data/service/index.ts';
import { samplePerson } from '#test/support/person.ts';
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

describe('the taxpayer number, as the service the token form found names it', () => {
  const input = samplePerson('Jane', 'Doe', 'jane@example.com') as CustomerInput;
  const retry = { ...input, tin: '123-45-6789' };

  /** A service of one form that takes a create and a retry, for what they carried. */
  async function takingCustomers(tokenForm: FakeTokenForm) {
    await serviceWith(tokenForm);
    fake.route('POST', '/customers', (_req, res) =>
      reply(res, 201, undefined, { Location: `${fake.baseUrl}/customers/c1` }),
    );
    fake.route('POST', '/customers/c1', (_req, res) => reply(res, 200, customerBody(fake.baseUrl, 'c1')));
  }
  const sentTo = (path: string) =>
    fake.received
      .filter((r) => r.method === 'POST' && r.path === path)
      .map((r) => JSON.parse(r.body.toString()));

  it.each([
    ['real', 'ssn', 'tin'],
    ['document', 'tin', 'ssn'],
  ] as const)(
    'Automatic on a %s-form service: %s, last four on create and all nine on the retry',
    async (form, name, absent) => {
      await takingCustomers(form);
      const { client, learned } = automatic();
      expect(client.token.dialect?.()).toBeUndefined();
      await client.customers.create(input);
      await client.customers.retry('c1', retry);
      await client.close();
      expect(learned).toEqual([form]);
      expect(client.token.dialect?.()).toBe(form);
      const [created] = sentTo('/customers');
      const [retried] = sentTo('/customers/c1');
      expect(created).toMatchObject({ [name]: '1234', email: input.email });
      expect(retried).toMatchObject({ [name]: '123-45-6789', email: input.email });
      expect(created).not.toHaveProperty(absent);
      expect(retried).not.toHaveProperty(absent);
    },
  );

  it('a forced form is the dialect from the start: today’s service gets the same body, tin named ssn', async () => {
    await takingCustomers('real');
    const { client } = clientOf(fake, { tokenEndpoint: 'real' });
    expect(client.token.dialect?.()).toBe('real');
    await client.customers.create(input);
    await client.close();
    expect(sentTo('/customers')[0]).toEqual({ ...withoutTin(input), ssn: '1234' });
    expect(customerBodyIn('document', input)).toEqual(input);
  });

  it('today’s service’s error at /ssn comes back at the form’s /tin', async () => {
    await takingCustomers('real');
    fake.route('POST', '/customers', (_req, res) =>
      reply(res, 400, {
        code: 'ValidationError',
        message: 'Validation error(s) present.',
        _embedded: { errors: [{ code: 'Required', message: 'Ssn required.', path: '/ssn' }] },
      }),
    );
    const { client } = clientOf(fake, { tokenEndpoint: 'real' });
    const error = await client.customers.create(input).catch((e: unknown) => e);
    await client.close();
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ status: 400, code: 'ValidationError' });
    expect((error as ServiceError).fields).toEqual([
      { path: '/tin', code: 'Required', message: 'Ssn required.' },
    ]);
  });
});

function withoutTin(input: CustomerInput): Omit<CustomerInput, 'tin'> {
  const { tin: _, ...rest } = input;
  return rest;
}
