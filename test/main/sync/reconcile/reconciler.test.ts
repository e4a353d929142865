// The reconciler's refresh: GET the customer, record what the service says, and tell who changed. What the
// customer was before comes from the write itself (the row it found under its own lock), not from a read of
// its own first: on a team store that read was one more round trip for every delivery.
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { QueueRow } from '#contract/queue.ts';
import { openJournal } from '#main/data/journal/sqlite.ts';
import type { ServiceClient } from '#main/data/service/index.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { createReconciler } from '#main/sync/reconcile/reconciler.ts';
import { serviceCustomer, tempDir } from '#test/main/data/journal/helpers.ts';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function reconcilerOn(status: { now: string }) {
  const journal = openJournal({ file: path.join(tempDir(), 'journal.db'), dataKey: createFieldKey() });
  closers.push(() => journal.close());
  const client = {
    customers: { get: async (id: string) => serviceCustomer({ id, status: status.now }) },
  } as unknown as ServiceClient;
  const changed: QueueRow[] = [];
  const reconciler = createReconciler({
    journal,
    client: () => client,
    onChange: (row) => changed.push(row),
  });
  return { journal, reconciler, changed };
}

describe('a refresh', () => {
  it('answers the customer as it was before and as it is now, reading nothing before its write', async () => {
    const status = { now: 'retry' };
    const { journal, reconciler, changed } = reconcilerOn(status);
    const first = await reconciler.refreshed('c-1', { source: 'event' });
    expect(first.before).toBeUndefined();
    expect(first.after).toMatchObject({ id: 'c-1', status: 'retry' });

    status.now = 'verified';
    const read = vi.spyOn(journal.customers, 'get');
    const second = await reconciler.refreshed('c-1', { source: 'event' });
    expect(read).not.toHaveBeenCalled();
    expect(second.before).toMatchObject({ id: 'c-1', status: 'retry' });
    expect(second.after).toMatchObject({ id: 'c-1', status: 'verified' });
    expect(changed.map((row) => row.status)).toEqual(['retry', 'verified']);

    // Nothing changed on the service: the queue's row is the same, nobody is told.
    const third = await reconciler.refreshed('c-1', { source: 'event' });
    expect(third.before).toMatchObject({ status: 'verified' });
    expect(changed).toHaveLength(2);
  });
});
