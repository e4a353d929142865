import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DraftStatus, DraftView } from '#contract/drafts.ts';
import {
  createOnService,
  type DeskHarness,
  everyFile,
  removeDir,
  startDesk,
} from '#test/support/desk/desk-harness.ts';
import { customersWithEmail, setFaults, validForm } from '#test/support/desk/drafts.ts';
import { until } from '#test/support/poll.ts';

/** Drafts, the outbox and the retry through the whole desk (the contract's dispatch), on the built-in sandbox. */

const FULL_SSN = '987-65-4321';

function auditRows(
  h: DeskHarness,
): { action: string; customer_id: string | null; outcome: string; detail: string | null }[] {
  const db = new DatabaseSync(path.join(h.dataDir, 'journal.db'), { readOnly: true });
  try {
    return db
      .prepare('SELECT action, customer_id, outcome, detail FROM audit_log ORDER BY seq')
      .all() as never;
  } finally {
    db.close();
  }
}

const untilState = (h: DeskHarness, id: string, state: DraftStatus['state']): Promise<DraftView> =>
  until(async () => {
    const draft = await h.call('drafts.get', { id });
    return draft.state === state && draft;
  }, `draft ${id} ${state}`);

describe('desk: drafts and the outbox', () => {
  let h: DeskHarness;

  beforeAll(async () => {
    h = await startDesk();
  });
  afterAll(async () => {
    await h.close();
    removeDir(h.dataDir);
  });

  it('autosaves a partial draft, encrypted, and brings it back exactly as left after a restart', async () => {
    const created = await h.call('drafts.create');
    expect(created).toMatchObject({
      state: 'draft',
      form: { type: 'personal' },
      actions: { edit: true, submit: true, discard: true, tryAgain: false, linkDuplicate: false },
    });
    const form = {
      type: 'personal',
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@navy.example',
      address1: '17 Unusual Lane',
      dateOfBirth: '1906-12-09',
      state: 'N',
    };
    const saved = await h.call('drafts.save', { id: created.id, form });
    expect(saved).toEqual({ id: created.id, savedAt: expect.any(String) });

    const drafts = await h.call('queue.window', { section: 'drafts', search: '', offset: 0, limit: 50 });
    expect(drafts.rows).toContainEqual(
      expect.objectContaining({ id: created.id, name: 'Grace Hopper', status: 'draft', section: 'drafts' }),
    );

    const dataDir = h.dataDir;
    await h.close();
    for (const file of everyFile(dataDir)) {
      expect(file.includes('17 Unusual Lane')).toBe(false);
      expect(file.includes('1906-12-09')).toBe(false);
    }
    h = await startDesk(dataDir);
    expect((await h.call('drafts.get', { id: created.id })).form).toEqual(form);
  });

  it('discards a draft only when confirmed, and audits it', async () => {
    const { id } = await h.call('drafts.create');
    await expect(h.call('drafts.discard', { id } as never)).rejects.toMatchObject({ code: 'BadInput' });
    expect(await h.call('drafts.discard', { id, confirmed: true })).toEqual({ id, discarded: true });
    await expect(h.call('drafts.get', { id })).rejects.toMatchObject({ code: 'NotFound' });
    expect(auditRows(h).at(-1)).toMatchObject({
      action: 'draft.discard',
      outcome: 'ok',
      detail: `draft ${id}`,
    });
    expect(h.events).toContainEqual({ event: 'draft.discarded', payload: { id } });
  });

  it('submits: invalid drafts come back with field errors, valid ones become customers linked to them', async () => {
    const invalid = await h.call('drafts.create');
    await h.call('drafts.save', { id: invalid.id, form: validForm({ postalCode: '1234', state: 'XX' }) });
    const valid = await h.call('drafts.create');
    const form = validForm({ firstName: 'retry' });
    await h.call('drafts.save', { id: valid.id, form });
    h.events.length = 0;

    const result = await h.call('drafts.submit', { ids: [invalid.id, valid.id] });
    expect(result.queued).toEqual([valid.id]);
    expect(result.invalid).toEqual([
      {
        id: invalid.id,
        errors: [
          expect.objectContaining({
            path: '/state',
            code: 'InvalidFormat',
            hint: expect.stringMatching(/state/),
          }),
          expect.objectContaining({ path: '/postalCode', code: 'InvalidFormat' }),
        ],
      },
    ]);
    expect((await h.call('drafts.get', { id: invalid.id })).state).toBe('draft');

    const done = await untilState(h, valid.id, 'created');
    expect(done.actions).toEqual({
      edit: false,
      submit: false,
      tryAgain: false,
      discard: false,
      linkDuplicate: false,
    });
    const [customer] = await customersWithEmail(h.desk.connection().client(), form.email!);
    expect(done.customerId).toBe(customer?.id);
    // The webhook may record the status before the outbox stores the draft's personal data: wait for both.
    const recorded = await until(async () => {
      const found = await h.call('customers.get', { id: customer!.id }).catch(() => undefined);
      return found?.status === 'retry' && found.personal !== null && found;
    }, 'the customer with its personal data');
    expect(recorded.personal).toEqual({ ssnMasked: '•••-••-6789' });

    const states = h.events
      .filter((e) => e.event === 'draft.updated' && (e.payload as DraftStatus).id === valid.id)
      .map((e) => (e.payload as DraftStatus).state);
    expect(states).toEqual(expect.arrayContaining(['queued', 'sending', 'created']));
    expect(h.events).toContainEqual({
      event: 'job.progress',
      payload: expect.objectContaining({ job: 'outbox', done: 2, total: 2, finished: true }),
    });
    const queue = await h.call('queue.window', { section: 'drafts', search: '', offset: 0, limit: 50 });
    expect(queue.rows.map((row) => row.id)).not.toContain(valid.id);
    expect(auditRows(h)).toContainEqual(
      expect.objectContaining({ action: 'customer.create', customer_id: customer!.id, outcome: 'ok' }),
    );

    await expect(h.call('drafts.save', { id: valid.id, form })).rejects.toMatchObject({
      code: 'DraftLocked',
    });
    await expect(h.call('drafts.discard', { id: valid.id, confirmed: true })).rejects.toMatchObject({
      code: 'DraftLocked',
    });
  });

  it('offers to link a draft rejected for a Duplicate e-mail, and links it', async () => {
    const form = validForm();
    const existing = await createOnService(h, 'Verity', form.email!);
    const { id } = await h.call('drafts.create');
    await h.call('drafts.save', { id, form });
    await h.call('drafts.submit', { ids: [id] });
    const rejected = await untilState(h, id, 'rejected');
    expect(rejected).toMatchObject({
      duplicateOf: existing,
      fieldErrors: { '/email': expect.stringMatching(/already exists/) },
      problem: expect.stringMatching(/already exists/),
      actions: { edit: true, submit: true, linkDuplicate: true, discard: true },
    });
    const linked = await h.call('drafts.linkDuplicate', { id });
    expect(linked).toMatchObject({ state: 'created', customerId: existing });
    expect(await customersWithEmail(h.desk.connection().client(), form.email!)).toHaveLength(1);
  });

  it('keeps drafts queued while answers are lost, shows it, and drains by itself once they arrive', async () => {
    const service = h.desk.connection();
    await setFaults(service.sandbox!, service.client(), { rate: 1, kinds: ['reset'], paths: ['/customers'] });
    const form = validForm();
    const { id } = await h.call('drafts.create');
    await h.call('drafts.save', { id, form });
    try {
      await h.call('drafts.submit', { ids: [id] });
      await expect
        .poll(async () => (await h.call('drafts.get', { id })).attempts, { timeout: 15_000 })
        .toBeGreaterThan(0);
      const waiting = await h.call('drafts.get', { id });
      expect(waiting).toMatchObject({
        problem: expect.stringMatching(/by itself/),
        actions: { edit: false },
      });
      expect(['queued', 'sending']).toContain(waiting.state);
      // "Online" follows the service's last answer: the desk's other start-up requests (catch-up, the
      // subscription) may still succeed after the draft's first attempt failed; the outbox's own attempts
      // keep failing, so the status settles on offline.
      await expect.poll(async () => (await h.call('outbox.status')).online).toBe(false);
      const status = await h.call('outbox.status');
      expect(status).toMatchObject({ draining: true });
      expect(status.counts.queued + status.counts.sending).toBe(1);
    } finally {
      await setFaults(service.sandbox!, service.client(), { rate: 0 });
    }
    await untilState(h, id, 'created');
    // The answers were lost after the work was done: the service still made one customer.
    expect(await customersWithEmail(service.client(), form.email!)).toHaveLength(1);
    expect(await h.call('outbox.status')).toMatchObject({
      draining: false,
      counts: { queued: 0, sending: 0 },
    });
  });
});

describe('desk: the one-time retry', () => {
  let h: DeskHarness;
  let customerId: string;
  let form: ReturnType<typeof validForm>;

  beforeAll(async () => {
    h = await startDesk();
    form = validForm({ firstName: 'retry', address2: 'Flat 9' });
    const { id } = await h.call('drafts.create');
    await h.call('drafts.save', { id, form });
    await h.call('drafts.submit', { ids: [id] });
    customerId = (await untilState(h, id, 'created')).customerId!;
    await until(async () => {
      const customer = await h.call('customers.get', { id: customerId }).catch(() => undefined);
      return customer?.status === 'retry' && customer.personal !== null;
    }, 'the customer in retry, with its personal data');
  });
  afterAll(async () => {
    await h.close();
    removeDir(h.dataDir);
  });

  it('pre-fills the form from the draft that created the customer, without the SSN', async () => {
    const prefill = await h.call('retry.prefill', { customerId });
    expect(prefill).toEqual({ customerId, fromDraft: true, form: { ...form, tin: '' } });
  });

  it('starts empty for a customer not created here', async () => {
    const other = await createOnService(h, 'retry', validForm().email!);
    await h.call('customers.add', { ref: other });
    expect(await h.call('retry.prefill', { customerId: other })).toEqual({
      customerId: other,
      fromDraft: false,
      form: { type: 'personal', tin: '' },
    });
  });

  it('refuses an unconfirmed retry or one without the full SSN, and keeps the retry unused', async () => {
    await expect(
      h.call('retry.submit', { customerId, form: { ...form, tin: FULL_SSN } } as never),
    ).rejects.toMatchObject({ code: 'BadInput' });
    const refused = h.call('retry.submit', { customerId, form: { ...form, tin: '4321' }, confirmed: true });
    await expect(refused).rejects.toMatchObject({
      code: 'InvalidRetry',
      fields: { '/tin': expect.stringMatching(/NNN-NN-NNNN/) },
    });
    expect((await h.call('customers.get', { id: customerId })).actions.retry.allowed).toBe(true);
  });

  it('sends the retry once, shows the outcome, then disables it', async () => {
    const outcome = await h.call('retry.submit', {
      customerId,
      form: { ...form, firstName: 'Verity', tin: FULL_SSN },
      confirmed: true,
    });
    expect(outcome).toMatchObject({
      customerId,
      status: 'verified',
      customer: { id: customerId, section: 'verified' },
    });
    const detail = await h.call('customers.get', { id: customerId });
    expect(detail.actions.retry).toEqual({ allowed: false, reason: expect.stringMatching(/retry/) });
    expect(detail.personal).toEqual({ ssnMasked: '•••-••-4321' });
    await expect(
      h.call('retry.submit', { customerId, form: { ...form, tin: FULL_SSN }, confirmed: true }),
    ).rejects.toMatchObject({ code: 'RetryUsed' });
    await expect(h.call('retry.prefill', { customerId })).rejects.toMatchObject({ code: 'RetryUsed' });
    expect(auditRows(h)).toContainEqual(
      expect.objectContaining({ action: 'customer.retry', customer_id: customerId, outcome: 'verified' }),
    );
  });

  it('leaves the full SSN nowhere: not in a file, a log line, an answer or an event', async () => {
    const digits = FULL_SSN.replaceAll('-', '');
    const dataDir = h.dataDir;
    const said = JSON.stringify([h.logLines, h.outputs, h.events]);
    expect(said).not.toContain(FULL_SSN);
    expect(said).not.toContain(digits);
    await h.close();
    for (const file of everyFile(dataDir)) {
      expect(file.includes(FULL_SSN)).toBe(false);
      expect(file.includes(digits)).toBe(false);
    }
    h = await startDesk(dataDir);
  });
});
