import { describe, expect, it } from 'vitest';
import type { Progress } from '#contract/customers.ts';
import {
  type CustomerInput,
  NetworkError,
  RateLimitedError,
  type ServiceClient,
  ServiceError,
} from '#main/data/service/index.ts';
import { startSandbox } from '#sandbox/index.ts';
import { clientOf, reply, startFakeService } from '#test/main/data/service/fake-service.ts';
import { customersWithEmail, submitDrafts, validForm } from '#test/support/desk/drafts.ts';
import { until } from '#test/support/poll.ts';
import { type Create, openRig, refusing, withCreate } from './outbox.setup.ts';

describe('outbox: outcomes', () => {
  it('fetches a created customer the rate limit kept it from reading once the service answers again', async () => {
    const rig = await openRig();
    const real = rig.client;
    let limited = true;
    const gated: ServiceClient = {
      ...real,
      customers: {
        ...real.customers,
        get: (...args) =>
          limited
            ? Promise.reject(new RateLimitedError(Date.now() + 30_000, Date.now()))
            : real.customers.get(...args),
      },
    };
    await rig.restart({ client: () => gated });
    const [id] = await submitDrafts(rig, [validForm()]);
    await rig.outbox.settled();
    expect(await rig.journal.drafts.get(id!)).toMatchObject({ state: 'created' });
    expect(await rig.journal.drafts.createdWithoutCustomer()).toHaveLength(1);

    limited = false;
    rig.outbox.wake();
    await until(
      async () => (await rig.journal.drafts.createdWithoutCustomer()).length === 0,
      'the customer recorded without a restart',
    );
  });

  it('maps a Duplicate e-mail onto the form, offers the existing customer, and links to it', async () => {
    const rig = await openRig();
    const form = validForm();
    const existing = await rig.client.customers.create({ ...(form as CustomerInput), firstName: 'Other' });
    const [id] = await submitDrafts(rig, [form]);
    await rig.outbox.settled();

    expect(await rig.journal.drafts.get(id!)).toMatchObject({
      state: 'rejected',
      fieldErrors: { '/email': expect.stringMatching(/already exists.*link this draft/i) },
      lastError: expect.stringMatching(/already exists/),
    });
    expect(await rig.journal.outbox.get(id!)).toMatchObject({
      duplicateOf: existing.id,
      maybeCreated: false,
    });

    await rig.outbox.linkDuplicate(id!);
    expect(await rig.journal.drafts.get(id!)).toMatchObject({ state: 'created', customerId: existing.id });
    expect((await rig.journal.audit.list())[0]).toMatchObject({
      action: 'draft.linkDuplicate',
      customerId: existing.id,
    });
    expect(await customersWithEmail(rig.client, form.email!)).toHaveLength(1);
  });

  it('sends a corrected draft with a new key once the service has rejected it', async () => {
    const rig = await openRig();
    const form = validForm();
    await rig.client.customers.create({ ...(form as CustomerInput) });
    const [id] = await submitDrafts(rig, [form]);
    await rig.outbox.settled();
    const firstKey = (await rig.journal.outbox.get(id!))!.idempotencyKey;
    const corrected = { ...form, email: `fixed.${form.email}` };
    await rig.journal.drafts.saveForm(id!, corrected);

    expect((await rig.outbox.submit([id!])).queued).toEqual([id]);
    expect((await rig.journal.outbox.get(id!))!.idempotencyKey).not.toBe(firstKey);
    await rig.outbox.settled();
    const [customer] = await customersWithEmail(rig.client, corrected.email);
    expect(await rig.journal.drafts.get(id!)).toMatchObject({ state: 'created', customerId: customer!.id });
  });

  it('does not queue a draft the contract rules refuse, and says why field by field', async () => {
    const rig = await openRig();
    const id = (
      await rig.journal.drafts.insert({ form: validForm({ postalCode: '1234', tin: '123-45-6789' }) })
    ).id;
    const result = await rig.outbox.submit([id, '00000000-0000-4000-8000-000000000000']);
    expect(result.queued).toEqual([]);
    expect(result.invalid).toEqual([
      {
        id,
        errors: [
          expect.objectContaining({ path: '/postalCode', code: 'InvalidFormat' }),
          expect.objectContaining({
            path: '/tin',
            code: 'InvalidFormat',
            hint: expect.stringMatching(/last 4/),
          }),
        ],
      },
    ]);
    expect(result.skipped).toEqual([
      { id: '00000000-0000-4000-8000-000000000000', reason: expect.any(String) },
    ]);
    expect((await rig.journal.drafts.get(id))?.state).toBe('draft');
    expect(await rig.journal.outbox.get(id)).toBeUndefined();
  });

  it('needs attention for a refusal that proves nothing was done; Try again uses a new key', async () => {
    let refuse = true;
    const rig = await openRig();
    const real = rig.client;
    const create: Create = (input, opts) =>
      refuse
        ? refusing(() => new ServiceError({ status: 403, code: 'Forbidden', message: 'Nope <secret>' }))(
            input,
            opts,
          )
        : real.customers.create(input, opts);
    await rig.restart({ client: () => withCreate(real, create) });
    const [id] = await submitDrafts(rig, [validForm()]);
    await rig.outbox.settled();
    const draft = (await rig.journal.drafts.get(id!))!;
    expect(draft).toMatchObject({ state: 'attention', lastError: expect.stringMatching(/403/) });
    expect(draft.lastError).not.toContain('secret');
    const key = (await rig.journal.outbox.get(id!))!;
    expect(key.maybeCreated).toBe(false);

    refuse = false;
    await rig.outbox.tryAgain(id!);
    expect((await rig.journal.outbox.get(id!))!.idempotencyKey).not.toBe(key.idempotencyKey);
    await rig.outbox.settled();
    expect((await rig.journal.drafts.get(id!))?.state).toBe('created');
  });

  it('keeps the key when the service may have acted on a request it answered oddly', async () => {
    let odd = true;
    const rig = await openRig();
    const real = rig.client;
    const keys: string[] = [];
    const create: Create = async (input, opts) => {
      keys.push(opts?.idempotencyKey ?? '');
      const created = await real.customers.create(input, opts);
      if (odd)
        throw new ServiceError({ status: 201, code: 'InvalidResponse', message: 'no Location header' });
      return created;
    };
    await rig.restart({ client: () => withCreate(real, create) });
    const form = validForm();
    const [id] = await submitDrafts(rig, [form]);
    await rig.outbox.settled();
    expect(await rig.journal.drafts.get(id!)).toMatchObject({
      state: 'attention',
      lastError: expect.stringMatching(/not created twice/),
    });
    expect((await rig.journal.outbox.get(id!))?.maybeCreated).toBe(true);
    expect((await rig.outbox.submit([id!])).skipped).toHaveLength(1);

    odd = false;
    await rig.outbox.tryAgain(id!);
    await rig.outbox.settled();
    expect(new Set(keys).size).toBe(1);
    expect(await customersWithEmail(real, form.email!)).toHaveLength(1);
    expect((await rig.journal.drafts.get(id!))?.state).toBe('created');
  });

  it('keeps drafts queued while the service is unreachable, with backoff, and sends them when woken', async () => {
    let offline = true;
    const rig = await openRig();
    const real = rig.client;
    const create: Create = (input, opts) =>
      offline ? refusing(() => new NetworkError('refused'))(input, opts) : real.customers.create(input, opts);
    const sent = Date.now();
    await rig.restart({
      client: () => withCreate(real, create),
      backoff: { baseMs: 60_000, maxMs: 60_000 },
      random: () => 0.5,
    });
    const [id] = await submitDrafts(rig, [validForm()]);
    await expect.poll(async () => (await rig.journal.drafts.get(id!))?.attempts).toBe(1);
    const waiting = (await rig.journal.drafts.get(id!))!;
    expect(waiting).toMatchObject({
      state: 'queued',
      lastError: expect.stringMatching(/^Queued until the service answers\. .*by itself/),
    });
    // Equal jitter: between half and all of the 60 s ceiling (0.5 → 45 s).
    expect(Date.parse(waiting.nextAttemptAt!) - sent).toBeGreaterThanOrEqual(45_000);
    expect(await rig.outbox.activity()).toMatchObject({
      inFlight: 0,
      draining: true,
      nextAttemptAt: waiting.nextAttemptAt,
    });

    offline = false;
    rig.outbox.wake();
    await rig.outbox.settled();
    expect((await rig.journal.drafts.get(id!))?.state).toBe('created');
  });

  it('sends many drafts at most 8 at a time, with progress to the end', async () => {
    const progress: Progress[] = [];
    let running = 0;
    let most = 0;
    const rig = await openRig();
    const real = rig.client;
    const create: Create = async (input, opts) => {
      most = Math.max(most, ++running);
      try {
        return await real.customers.create(input, opts);
      } finally {
        running--;
      }
    };
    await rig.restart({ client: () => withCreate(real, create), onProgress: (p) => progress.push(p) });
    await submitDrafts(
      rig,
      Array.from({ length: 40 }, () => validForm()),
    );
    await rig.outbox.settled();
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(8);
    expect(progress[0]).toMatchObject({ job: 'outbox', done: 0, total: 40, finished: false });
    expect(progress.at(-1)).toEqual({ job: 'outbox', done: 40, total: 40, finished: true, message: null });
    expect((await rig.journal.drafts.countByState()).created).toBe(40);
  });
});

describe('outbox: today’s real service names the SSN `ssn`', () => {
  it('sends a draft stored with `tin` (as every version stored it) to the real profile as `ssn`', async () => {
    const sandbox = await startSandbox({ profile: 'real' });
    try {
      const rig = await openRig({ sandbox });
      const form = validForm({ tin: '4321' });
      const { id } = await rig.journal.drafts.insert({ form });
      // What the journal holds is the interface document's name, before and after the upgrade.
      const stored = (await rig.journal.drafts.get(id))!.form;
      expect(stored).toMatchObject({ tin: '4321' });
      expect(stored).not.toHaveProperty('ssn');
      await rig.restart();
      expect((await rig.outbox.submit([id])).queued).toEqual([id]);
      await rig.outbox.settled();
      // The real profile refuses a body without `ssn` (at /ssn): created means it came as `ssn`.
      const draft = await rig.journal.drafts.get(id);
      expect(draft).toMatchObject({ state: 'created', fieldErrors: {} });
      expect((await customersWithEmail(rig.client, form.email!)).map((c) => c.id)).toEqual([
        draft!.customerId,
      ]);
    } finally {
      await sandbox.close();
    }
  });

  it('puts today’s service’s refusal at /ssn on the form’s SSN field', async () => {
    const fake = await startFakeService({ tokenForm: 'real' });
    fake.route('POST', '/customers', (_req, res) =>
      reply(res, 400, {
        code: 'ValidationError',
        message: 'Validation error(s) present.',
        _embedded: { errors: [{ code: 'InvalidFormat', message: 'Ssn invalid.', path: '/ssn' }] },
      }),
    );
    const { client } = clientOf(fake, { tokenEndpoint: 'automatic' });
    try {
      const rig = await openRig();
      await rig.restart({ client: () => client });
      const [id] = await submitDrafts(rig, [validForm()]);
      await rig.outbox.settled();
      expect(await rig.journal.drafts.get(id!)).toMatchObject({
        state: 'rejected',
        fieldErrors: { '/tin': expect.stringMatching(/^Ssn invalid\. Enter the last 4 digits/) },
        lastError: expect.stringMatching(/rejected one field: tin/),
      });
    } finally {
      await client.close();
      await fake.close();
    }
  });
});
