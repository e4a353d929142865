// A solo desk and four eyes: there is no second reviewer, so nothing ever waits. The retry leaves at once as
// it always did (the same answer, the same audit), exports with names are made at once, nothing is listed,
// and asking for an approval or deciding one is refused in words.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOnService, type DeskHarness, removeDir, startDesk } from '#test/support/desk/desk-harness.ts';
import { validForm } from '#test/support/desk/drafts.ts';

let h: DeskHarness;

beforeAll(async () => {
  h = await startDesk();
});

afterAll(async () => {
  await h?.close();
  if (h) removeDir(h.dataDir);
});

describe('four eyes on a solo desk', () => {
  it('needs no approval: the retry is sent at once, and nothing waits', async () => {
    expect(await h.call('approvals.required')).toEqual({ retry: false, exportNames: false });
    const customerId = await createOnService(h, 'retry', 'solo-four-eyes@example.com');
    await h.call('customers.add', { ref: customerId });
    const outcome = await h.call('retry.submit', {
      customerId,
      form: { ...validForm({ firstName: 'verified', lastName: 'Solo' }), tin: '123-45-6789' },
      confirmed: true,
    });
    expect(outcome).toMatchObject({ customerId, status: 'verified' });
    expect(outcome).not.toHaveProperty('waiting');
    expect(await h.call('approvals.list')).toEqual([]);
    expect(await h.call('approvals.forCase', { customerId })).toEqual({ approval: null });
  });

  it('exports with names at once, and refuses the approvals’ channels in words', async () => {
    const input = { section: 'all', search: '', revealReason: 'the monthly list' } as const;
    expect((await h.call('queue.export', input)).mimeType).toBe('text/csv');
    await expect(h.call('approvals.requestExport', input)).rejects.toMatchObject({
      code: 'NoApprovalNeeded',
    });
    for (const call of [
      () => h.call('approvals.approve', { id: randomUUID(), note: 'fine' }),
      () => h.call('approvals.cancel', { id: randomUUID() }),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: 'SoloDesk' });
    }
    await expect(h.call('approvals.get', { id: randomUUID() })).rejects.toMatchObject({
      code: 'NoSuchApproval',
    });
  });
});
