import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { NetworkError, type ServiceClient } from '#main/data/service/index.ts';
import { customersWithEmail, submitDrafts, validForm } from '#test/support/desk/drafts.ts';
import { type Create, losingAnswers, openRig, withCreate } from './outbox.setup.ts';

/** Never answers; gives up only when the outbox closes (a process killed mid-request). */
function hangingAfterWork(client: ServiceClient): Create {
  return async (input, opts) => {
    await client.customers.create(input, opts);
    return new Promise((_, reject) =>
      opts?.signal?.addEventListener('abort', () => reject(new NetworkError('aborted'))),
    );
  };
}

describe('outbox: exactly once', () => {
  it('stores the Idempotency-Key durably before the first request, then links draft and customer', async () => {
    const seen: { sent: string; stored: unknown }[] = [];
    const rig = await openRig();
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
    const rig = await openRig();
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
    const rig = await openRig();
    await rig.restart({ client: () => withCreate(rig.client, hangingAfterWork(rig.client)) });
    const form = validForm();
    const [id] = await submitDrafts(rig, [form]);
    await expect.poll(async () => (await customersWithEmail(rig.client, form.email!)).length).toBe(1);
    const key = (await rig.journal.outbox.get(id!))!.idempotencyKey;

    await rig.restart({ client: () => rig.client });
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
    const rig = await openRig({ canSend: () => false });
    const form = validForm();
    const [id] = await submitDrafts(rig, [form]);
    await rig.restart({ canSend: () => true });
    rig.outbox.resume();
    await rig.outbox.settled();
    expect(await customersWithEmail(rig.client, form.email!)).toHaveLength(1);
    expect((await rig.journal.drafts.get(id!))?.state).toBe('created');
  });

  it('fetches after a restart the customer a draft was linked to but not yet recorded', async () => {
    const rig = await openRig();
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
