import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import type { Progress } from '../../contract/customers.ts';
import type { WriteOptions } from '../../main/service/api.ts';
import {
  type CustomerInput,
  NetworkError,
  type ServiceClient,
  ServiceError,
} from '../../main/service/index.ts';
import { customersWithEmail, type OutboxRig, outboxRig, submitDrafts, validForm } from './helpers.ts';

/** The exactly-once engine on a real sandbox, with failures injected where the desk cannot inject them. */

type Create = ServiceClient['customers']['create'];

function withCreate(client: ServiceClient, create: Create): ServiceClient {
  return { ...client, customers: { ...client.customers, create } };
}

/** The service did the work, then the answer was lost: what a reset after commit looks like to Vetted. */
function losingAnswers(client: ServiceClient, times: number, keys: string[] = []): Create {
  let lost = 0;
  return async (input, opts) => {
    keys.push(opts?.idempotencyKey ?? '');
    const created = await client.customers.create(input, opts);
    if (lost++ < times) throw new NetworkError('reset');
    return created;
  };
}

/** Never answers; gives up only when the outbox closes (a process killed mid-request). */
function hangingAfterWork(client: ServiceClient): Create {
  return async (input, opts) => {
    await client.customers.create(input, opts);
    return new Promise((_, reject) =>
      opts?.signal?.addEventListener('abort', () => reject(new NetworkError('aborted'))),
    );
  };
}

function refusing(error: () => Error): Create {
  return async () => {
    throw error();
  };
}

let rig: OutboxRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const HOUR = 3_600_000;

describe('outbox: exactly once', () => {
  it('stores the Idempotency-Key durably before the first request, then links draft and customer', async () => {
    const seen: { sent: string; stored: unknown }[] = [];
    rig = await outboxRig();
    const { client, file } = rig;
    const checkStored: Create = async (input, opts) => {
      // Another connection sees only what is committed to the file.
      const db = new DatabaseSync(file, { readOnly: true });
      const stored = db.prepare('SELECT idempotency_key AS key FROM outbox').get()?.key;
      db.close();
      seen.push({ sent: opts?.idempotencyKey ?? '', stored });
      return client.customers.create(input, opts);
    };
    await rig.restart({ client: () => withCreate(client, checkStored) });
    const form = validForm();
    const [id] = await submitDrafts(rig, [form]);
    await rig.outbox.settled();

    expect(seen).toEqual([{ sent: expect.stringMatching(/^[0-9a-f-]{36}$/), stored: seen[0]?.sent }]);
    const draft = (await rig.journal.drafts.get(id!))!;
    expect(draft).toMatchObject({ state: 'created', customerId: expect.any(String), lastError: null });
    const [customer] = await customersWithEmail(client, form.email!);
    expect(customer?.id).toBe(draft.customerId);
    expect(await rig.journal.customers.get(customer!.id)).toMatchObject({ status: 'verified' });
    expect((await rig.journal.customers.history(customer!.id))[0]).toMatchObject({ source: 'created' });
    expect(await rig.journal.customers.personal(customer!.id)).toEqual({
      address: { address1: '221 Baker Street', city: 'Springfield', state: 'IL', postalCode: '62704' },
      dateOfBirth: '1984-02-29',
      ssnLastFour: '6789',
    });
    expect((await rig.journal.audit.list())[0]).toMatchObject({
      action: 'customer.create',
      customerId: customer!.id,
      outcome: 'ok',
      detail: `draft ${id}`,
    });
  });

  it('sends the same key again after lost answers, and the service creates the customer once', async () => {
    rig = await outboxRig();
    const keys: string[] = [];
    const losing = withCreate(rig.client, losingAnswers(rig.client, 3, keys));
    await rig.restart({ client: () => losing });
    const form = validForm();
    const [id] = await submitDrafts(rig, [form]);
    await rig.outbox.settled();

    expect(keys).toHaveLength(4);
    expect(new Set(keys).size).toBe(1);
    const customers = await customersWithEmail(rig.client, form.email!);
    expect(customers).toHaveLength(1);
    expect(await rig.journal.drafts.get(id!)).toMatchObject({
      state: 'created',
      customerId: customers[0]!.id,
    });
  });

  it('survives a stop after the service created the customer but before Vetted recorded it', async () => {
    rig = await outboxRig();
    await rig.restart({ client: () => withCreate(rig!.client, hangingAfterWork(rig!.client)) });
    const form = validForm();
    const [id] = await submitDrafts(rig, [form]);
    await expect.poll(async () => (await customersWithEmail(rig!.client, form.email!)).length).toBe(1);
    const key = (await rig.journal.outbox.get(id!))!.idempotencyKey;

    await rig.restart({ client: () => rig!.client });
    expect((await rig.journal.drafts.get(id!))?.state).toBe('queued');
    expect(await rig.journal.outbox.get(id!)).toMatchObject({ idempotencyKey: key, maybeCreated: true });
    rig.outbox.resume();
    await rig.outbox.settled();

    const customers = await customersWithEmail(rig.client, form.email!);
    expect(customers).toHaveLength(1);
    expect(await rig.journal.drafts.get(id!)).toMatchObject({
      state: 'created',
      customerId: customers[0]!.id,
    });
  });

  it('survives a stop before the request left: the draft stays queued and is sent after the restart', async () => {
    rig = await outboxRig({ canSend: () => false });
    const form = validForm();
    const [id] = await submitDrafts(rig, [form]);
    await rig.restart({ canSend: () => true });
    rig.outbox.resume();
    await rig.outbox.settled();
    expect(await customersWithEmail(rig.client, form.email!)).toHaveLength(1);
    expect((await rig.journal.drafts.get(id!))?.state).toBe('created');
  });

  it('fetches after a restart the customer a draft was linked to but not yet recorded', async () => {
    rig = await outboxRig();
    const form = validForm();
    const [id] = await submitDrafts(rig, [form]);
    await rig.outbox.settled();
    const customerId = (await rig.journal.drafts.get(id!))!.customerId!;
    // As if Vetted had stopped between linking and fetching.
    const db = new DatabaseSync(rig.file);
    db.exec('PRAGMA foreign_keys = OFF');
    for (const table of ['status_history', 'customers']) {
      db.prepare(`DELETE FROM ${table} WHERE ${table === 'customers' ? 'id' : 'customer_id'} = ?`).run(
        customerId,
      );
    }
    db.close();
    expect(await rig.journal.customers.get(customerId)).toBeUndefined();

    rig.outbox.resume();
    await rig.outbox.settled();
    expect(await rig.journal.customers.get(customerId)).toMatchObject({ status: 'verified' });
    expect((await rig.journal.customers.personal(customerId))?.ssnLastFour).toBe('6789');
  });
});

describe('outbox: outcomes', () => {
  it('maps a Duplicate e-mail onto the form, offers the existing customer, and links to it', async () => {
    rig = await outboxRig();
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
    rig = await outboxRig();
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
    rig = await outboxRig();
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
    rig = await outboxRig();
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
    rig = await outboxRig();
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
    rig = await outboxRig();
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
    await expect.poll(async () => (await rig!.journal.drafts.get(id!))?.attempts).toBe(1);
    const waiting = (await rig.journal.drafts.get(id!))!;
    expect(waiting).toMatchObject({
      state: 'queued',
      lastError: expect.stringMatching(/could not be reached.*by itself/),
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
    rig = await outboxRig();
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

describe('outbox: keys the service may have forgotten (24 h)', () => {
  /** A draft whose send reached the service but whose answer was lost, then a day and more passes. */
  async function lostForADay(extra: { listUnsupported?: boolean } = {}) {
    let now = Date.now();
    const clock = () => new Date(now);
    rig = await outboxRig({ clock, backoff: { baseMs: 48 * HOUR, maxMs: 48 * HOUR } });
    const real = rig.client;
    const losing = withCreate(real, losingAnswers(real, Number.POSITIVE_INFINITY));
    await rig.restart({ client: () => losing });
    const form = validForm();
    const [id] = await submitDrafts(rig, [form]);
    await expect.poll(async () => (await rig!.journal.drafts.get(id!))?.attempts).toBe(1);
    expect(await customersWithEmail(real, form.email!)).toHaveLength(1);

    now += 25 * HOUR;
    await rig.sandbox.advanceClock(25 * 3600);
    const calls = { create: 0, list: 0 };
    const counted: ServiceClient = {
      ...real,
      customers: {
        ...real.customers,
        create: (input: CustomerInput, opts?: WriteOptions) => {
          calls.create++;
          return real.customers.create(input, opts);
        },
        list: (query) => {
          calls.list++;
          return extra.listUnsupported
            ? Promise.resolve({ unsupported: true as const })
            : real.customers.list(query);
        },
      },
    };
    await rig.restart({ client: () => counted });
    rig.outbox.resume();
    await rig.outbox.settled();
    return { id: id!, form, calls };
  }

  it('looks the customer up by e-mail instead of re-posting, and links the draft to it', async () => {
    const { id, form, calls } = await lostForADay();
    expect(calls).toEqual({ create: 0, list: 1 });
    const customers = await customersWithEmail(rig!.client, form.email!);
    expect(customers).toHaveLength(1);
    expect(await rig!.journal.drafts.get(id)).toMatchObject({
      state: 'created',
      customerId: customers[0]!.id,
    });
    expect((await rig!.journal.audit.list())[0]).toMatchObject({
      action: 'customer.create.found',
      outcome: 'ok',
    });
  });

  it('without a customer list, follows the Duplicate error’s about link to the customer it made', async () => {
    const { id, form, calls } = await lostForADay({ listUnsupported: true });
    expect(calls).toEqual({ create: 1, list: 1 });
    const customers = await customersWithEmail(rig!.client, form.email!);
    expect(customers).toHaveLength(1);
    expect(await rig!.journal.drafts.get(id)).toMatchObject({
      state: 'created',
      customerId: customers[0]!.id,
    });
  });

  it('does not take a customer created before the draft for its own', async () => {
    let now = Date.now() + 2 * HOUR;
    const clock = () => new Date(now);
    rig = await outboxRig({ clock, backoff: { baseMs: 48 * HOUR, maxMs: 48 * HOUR } });
    const form = validForm();
    const someoneElses = await rig.client.customers.create({ ...(form as CustomerInput) });
    const real = rig.client;
    await rig.restart({
      client: () =>
        withCreate(
          real,
          refusing(() => new NetworkError('timeout')),
        ),
    });
    const [id] = await submitDrafts(rig, [form]);
    await expect.poll(async () => (await rig!.journal.drafts.get(id!))?.attempts).toBe(1);

    now += 25 * HOUR;
    await rig.restart({ client: () => real });
    rig.outbox.resume();
    await rig.outbox.settled();
    expect(await rig.journal.drafts.get(id!)).toMatchObject({ state: 'rejected', customerId: null });
    expect((await rig.journal.outbox.get(id!))?.duplicateOf).toBe(someoneElses.id);
  });
});
