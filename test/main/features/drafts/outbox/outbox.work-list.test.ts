import { describe, expect, it } from 'vitest';
import { openJournal } from '#main/data/journal/index.ts';
import { workList } from '#main/features/drafts/outbox/work.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { journalFile } from '#test/main/data/journal/helpers.ts';
import { samplePerson } from '#test/support/person.ts';

/** The outbox's queued drafts in memory: loaded from the journal, in due order, never one finished meanwhile. */
describe('outbox: the work list', () => {
  const at = '2026-03-01T09:00:00.000Z';
  const open = async () => {
    const journal = openJournal({
      file: journalFile(),
      dataKey: createFieldKey(),
      clock: () => new Date(at),
    });
    for (let i = 0; i < 3; i++) {
      const { id } = await journal.drafts.insert({ form: samplePerson('A', `B${i}`, `w${i}@example.com`) });
      await journal.drafts.update(id, { state: 'queued' });
    }
    return { journal, work: workList(journal, () => new Date(at)) };
  };

  it('loads the queued drafts of an earlier run at the first use, due ones first, backoffs by their end', async () => {
    const { journal, work } = await open();
    // The journal's own due order (here by id: one clock, one `updated`).
    const ids = await journal.drafts.due(at, 10);
    await journal.drafts.update(ids[0]!, { nextAttemptAt: '2026-03-01T10:00:00.000Z', attempts: 1 });
    expect((await work.nextDue(new Set()))?.id).toBe(ids[1]);
    expect((await work.nextDue(new Set([ids[1]!])))?.id).toBe(ids[2]);
    expect(await work.nextDue(new Set([ids[1]!, ids[2]!]))).toBeUndefined();
    expect(work.nextAttemptAfter()).toBe('2026-03-01T10:00:00.000Z');
    work.clearBackoff();
    expect((await work.nextDue(new Set([ids[1]!, ids[2]!])))?.id).toBe(ids[0]);
    expect(work.nextAttemptAfter()).toBeNull();
    await journal.close();
  });

  it('does not take back a draft that finished while a reload was reading the journal', async () => {
    const { journal, work } = await open();
    const ids = await journal.drafts.due(at, 10);
    await work.reload();
    // The reload reads the journal while the first draft's outcome is still being written…
    const reloading = work.reload();
    await journal.drafts.update(ids[0]!, { state: 'created' });
    work.done(ids[0]!);
    await reloading;
    expect(work.get(ids[0]!)).toBeUndefined();
    expect((await work.nextDue(new Set()))?.id).toBe(ids[1]);
    await journal.close();
  });
});
