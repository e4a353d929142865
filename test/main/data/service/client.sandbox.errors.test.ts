import { describe, expect, it } from 'vitest';
import { isNotFound, ServiceError } from '#main/data/service/index.ts';
import { until } from '#test/support/poll.ts';
import { CODES, PROFILES, person, setUpOn } from './client.sandbox.setup.ts';

describe.each(PROFILES)('every error the sandbox sends on the %s profile, mapped', (profile) => {
  const setUp = setUpOn(profile);
  const codes = CODES[profile];

  it('ValidationError with field paths, and Duplicate with its about link', async () => {
    const { client } = await setUp();
    const bad = { ...person(), email: 'not-an-email', dateOfBirth: '1990-02-30', postalCode: 'x', tin: '12' };
    const error = (await client.customers.create(bad).catch((e: unknown) => e)) as ServiceError;
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.is('validationerror')).toBe(true);
    expect(error.status).toBe(400);
    expect(error.fields.map((f) => f.path).sort()).toEqual(['/dateOfBirth', '/email', '/postalCode', '/tin']);
    expect(error.requestId).toBeTruthy();

    const first = person();
    const { url } = await client.customers.create(first);
    const duplicate = (await client.customers
      .create({ ...person(), email: first.email })
      .catch((e: unknown) => e)) as ServiceError;
    expect(duplicate.fields[0]).toMatchObject({ code: 'Duplicate', path: '/email' });
    expect(duplicate.aboutUrl).toBe(url);
    await expect(client.customers.get({ href: duplicate.aboutUrl! })).resolves.toMatchObject({
      email: first.email,
    });
  });

  it('NotFound, InvalidResourceState, list', async () => {
    const { client } = await setUp();
    const unknown = await client.customers.get(crypto.randomUUID()).catch((e: unknown) => e);
    expect(unknown).toMatchObject(codes.notFound);
    // Only the customer's own URL answering so (404, or the real service's 403 `notFound`) means gone.
    expect(isNotFound(unknown)).toBe(true);
    const { id } = await client.customers.create(person());
    const retry = { ...person(), tin: '123-45-6789' };
    const error = (await client.customers.retry(id, retry).catch((e: unknown) => e)) as ServiceError;
    expect(error.status).toBe(403);
    expect(error.is('InvalidResourceState')).toBe(true);
    const page = await client.customers.list({ status: ['verified'], limit: 10 });
    expect('customers' in page && page.customers.map((c) => c.id)).toContain(id);
  });

  it.runIf(profile === 'real')(
    '401 account and application refusals, and 500 RequestTimeout, never "gone"',
    async () => {
      const { client, control } = await setUp();
      const { id } = await client.customers.create(person());
      for (const kind of ['InvalidAccountStatus', 'InvalidApplicationStatus', 'InvalidScopes']) {
        await control('/sandbox/faults', { rate: 1, kinds: [kind], paths: ['/customers/{id}'] });
        const error = await client.customers.get(id).catch((e: unknown) => e);
        expect(error).toMatchObject({ status: 401, code: kind });
        expect(isNotFound(error)).toBe(false);
      }
      await control('/sandbox/faults', { rate: 1, kinds: ['RequestTimeout'], paths: ['/customers/{id}'] });
      const timeout = await client.customers.get(id).catch((e: unknown) => e);
      expect(timeout).toMatchObject({ status: 500, code: 'RequestTimeout', retryable: true });
      expect(isNotFound(timeout)).toBe(false);
      await control('/sandbox/faults', { rate: 0 });
      await expect(client.customers.get(id)).resolves.toMatchObject({ id });
    },
  );

  it('Conflict while a keyed request is still running', async () => {
    const { client, control, stats } = await setUp();
    // Held until the faults are set again: the second request meets the first still running.
    await control('/sandbox/faults', { rate: 1, kinds: ['delay'], paths: ['/customers'], delayMs: 60_000 });
    const key = crypto.randomUUID();
    const input = person();
    const firstOutcome = client.customers.create(input, { idempotencyKey: key });
    await until(async () => (await stats()).heldRequests === 1, 'the first request held');
    const second = await client.customers.create(input, { idempotencyKey: key }).catch((e: unknown) => e);
    expect(second).toMatchObject({ status: 409, code: 'Conflict', retryable: true });
    await control('/sandbox/faults', { rate: 0 });
    const first = await firstOutcome;
    await expect(client.customers.create(input, { idempotencyKey: key })).resolves.toEqual(first);
  });

  it('the retry flow, then document upload errors and success', async () => {
    const { client } = await setUp({ reviewDelayMs: 60_000 });
    const input = person('retry');
    const { id } = await client.customers.create(input);
    await expect(client.customers.get(id)).resolves.toMatchObject({ status: 'retry' });
    const after = await client.customers.retry(id, { ...input, firstName: 'document', tin: '123-45-6789' });
    expect(after.status).toBe('document');
    await expect(client.customers.retry(id, { ...input, tin: '123-45-6789' })).rejects.toMatchObject({
      status: 403,
    });

    const notAnImage = {
      documentType: 'passport',
      fileName: 'a.jpg',
      contentType: 'image/jpeg',
      bytes: new Uint8Array(64),
    };
    await expect(client.documents.upload(id, notAnImage)).rejects.toMatchObject({
      status: 400,
      code: codes.invalidFileType,
    });
    const huge = { ...jpeg(), bytes: new Uint8Array(10 * 1024 * 1024 + 1) };
    huge.bytes.set(jpeg().bytes.subarray(0, 16));
    await expect(client.documents.upload(id, huge)).rejects.toMatchObject({
      status: 413,
      code: codes.fileTooLarge,
    });
    const badType = { ...jpeg(), documentType: 'selfie' };
    await expect(client.documents.upload(id, badType)).rejects.toMatchObject({
      status: 400,
      code: 'ValidationError',
    });

    const progress: number[] = [];
    const doc = await client.documents.upload(id, jpeg(), { onProgress: (sent) => progress.push(sent) });
    expect(progress.length).toBeGreaterThan(0);
    await expect(client.documents.get({ href: doc.url })).resolves.toMatchObject({
      id: doc.id,
      status: 'pending',
    });
    await expect(client.documents.listForCustomer(id)).resolves.toHaveLength(1);
    for (let i = 0; i < 3; i++) await client.documents.upload(id, jpeg());
    await expect(client.documents.upload(id, jpeg())).rejects.toMatchObject({
      status: 400,
      code: codes.tooManyDocuments,
    });
  });

  it('subscriptions, events and deliveries', async () => {
    const { client } = await setUp();
    const created = await client.subscriptions.create('http://127.0.0.1:9/hooks', 'a-secret-of-ours');
    await expect(client.subscriptions.get(created.id)).resolves.toMatchObject({
      id: created.id,
      paused: false,
    });
    await expect(client.subscriptions.setPaused(created.id, true)).resolves.toMatchObject({ paused: true });
    await expect(client.subscriptions.list()).resolves.toHaveLength(1);
    await client.customers.create(person());
    const { events, total } = await client.events.list({ limit: 10 });
    expect(total).toBeGreaterThan(0);
    await expect(client.events.get(events[0]!.id)).resolves.toMatchObject({ topic: events[0]!.topic });
    // Webhooks are recorded as the events are dispatched, which may trail the create a little.
    await until(async () => (await client.subscriptions.deliveries(created.id)).total > 0, 'a delivery');
    const { deliveries } = await client.subscriptions.deliveries(created.id, { limit: 5 });
    expect(deliveries[0]).toMatchObject({ subscriptionId: created.id });
    // Redelivery (once resumed): the interface profile links `retries`, the real one `retry`; one route.
    await client.subscriptions.setPaused(created.id, false);
    await expect(client.subscriptions.redeliver(deliveries[0]!.id)).resolves.toMatchObject({
      url: expect.stringContaining('/retries/'),
    });
    if (profile === 'real') {
      // Bounded by date, as catch-up asks: a window long past holds none of today's deliveries.
      const past = await client.subscriptions.deliveries(created.id, {
        startDate: '2000-01-01',
        endDate: '2000-01-02',
      });
      expect(past.total).toBe(0);
    }
    await expect(client.subscriptions.delete(created.id)).resolves.toBeUndefined();
    await expect(client.subscriptions.get(created.id)).rejects.toMatchObject({ status: 404 });
  });
});

/** The smallest JPEG the sandbox accepts as one: SOI, JFIF APP0 and EOI markers. */
function jpeg() {
  const bytes = new Uint8Array(2048);
  bytes.set([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]);
  bytes.set([0xff, 0xd9], bytes.length - 2);
  return { documentType: 'passport', fileName: 'passport.jpg', contentType: 'image/jpeg', bytes };
}
