import { describe, expect, it } from 'vitest';
import type { WriteOptions } from '#main/data/service/api.ts';
import { type CustomerInput, NetworkError, type ServiceClient } from '#main/data/service/index.ts';
import { customersWithEmail, submitDrafts, validForm } from '#test/support/desk/drafts.ts';
import { losingAnswers, openRig, refusing, withCreate } from './outbox.setup.ts';

const HOUR = 3_600_000;

describe('outbox: keys the service may have forgotten (24 h)', () => {
  /** A draft whose send reached the service but whose answer was lost, then a day and more passes. */
  async function lostForADay(extra: { listUnsupported?: boolean } = {}) {
    let now = Date.now();
    const clock = () => new Date(now);
    const rig = await openRig({ clock, backoff: { baseMs: 48 * HOUR, maxMs: 48 * HOUR } });
    const real = rig.client;
    const losing = withCreate(real, losingAnswers(real, Number.POSITIVE_INFINITY));
    await rig.restart({ client: () => losing });
    const form = validForm();
    const [id] = await submitDrafts(rig, [form]);
    await expect.poll(async () => (await rig.journal.drafts.get(id!))?.attempts).toBe(1);
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
    return { rig, id: id!, form, calls };
  }

  it('looks the customer up by e-mail instead of re-posting, and links the draft to it', async () => {
    const { rig, id, form, calls } = await lostForADay();
    expect(calls).toEqual({ create: 0, list: 1 });
    const customers = await customersWithEmail(rig.client, form.email!);
    expect(customers).toHaveLength(1);
    expect(await rig.journal.drafts.get(id)).toMatchObject({
      state: 'created',
      customerId: customers[0]!.id,
    });
    expect((await rig.journal.audit.list())[0]).toMatchObject({
      action: 'customer.create.found',
      outcome: 'ok',
    });
  });

  it('without a customer list, follows the Duplicate error’s about link to the customer it made', async () => {
    const { rig, id, form, calls } = await lostForADay({ listUnsupported: true });
    expect(calls).toEqual({ create: 1, list: 1 });
    const customers = await customersWithEmail(rig.client, form.email!);
    expect(customers).toHaveLength(1);
    expect(await rig.journal.drafts.get(id)).toMatchObject({
      state: 'created',
      customerId: customers[0]!.id,
    });
  });

  it('does not take a customer created before the draft for its own', async () => {
    let now = Date.now() + 2 * HOUR;
    const clock = () => new Date(now);
    const rig = await openRig({ clock, backoff: { baseMs: 48 * HOUR, maxMs: 48 * HOUR } });
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
    await expect.poll(async () => (await rig.journal.drafts.get(id!))?.attempts).toBe(1);

    now += 25 * HOUR;
    await rig.restart({ client: () => real });
    rig.outbox.resume();
    await rig.outbox.settled();
    expect(await rig.journal.drafts.get(id!)).toMatchObject({ state: 'rejected', customerId: null });
    expect((await rig.journal.outbox.get(id!))?.duplicateOf).toBe(someoneElses.id);
  });
});
