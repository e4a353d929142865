import { describe, expect, it } from 'vitest';
import type { StatusNotice } from '#contract/webhooks.ts';
import { overdueWatch } from '#main/features/queue/overdue.ts';
import { openSettings } from '#main/ground/config/settings-store.ts';
import { createEventHub } from '#main/ground/event-hub.ts';
import { createNotifier } from '#main/ground/notifier.ts';
import { manualClock, openTestJournal, serviceCustomer, tempDir } from '#test/main/data/journal/helpers.ts';

const HOUR = 3_600_000;

async function setUp() {
  const time = manualClock('2026-03-01T00:00:00.000Z');
  const journal = await openTestJournal({ clock: time.clock });
  const settings = openSettings({ dir: tempDir() });
  const events = createEventHub({ validate: true });
  const notices: StatusNotice[] = [];
  const counts: unknown[] = [];
  events.subscribe((event, payload) => {
    if (event === 'notification.show') notices.push(payload as StatusNotice);
    if (event === 'queue.overdue') counts.push(payload);
  });
  const add = async (id: string, firstName: string, status: string) =>
    journal.customers.upsert(serviceCustomer({ id, firstName, lastName: 'Case', status }), {
      source: 'event',
      at: time.iso(),
    });
  const notifier = createNotifier({ settings, events, clock: time.clock });
  const watch = overdueWatch({ journal, settings, events, notifier, clock: time.clock });
  return { time, journal, settings, notices, counts, add, watch };
}

describe('ageing targets, on a clock the test moves', () => {
  it('counts overdue cases per section and says once, natively, when one goes overdue', async () => {
    const { time, notices, counts, add, watch } = await setUp();
    await add('r1', 'Rita', 'retry');
    await add('d1', 'Dan', 'document');
    expect((await watch.check()).counts).toEqual({ retry: 0, document: 0, review: 0 });

    time.advance(23 * HOUR);
    await watch.check();
    expect(notices).toEqual([]);
    time.advance(2 * HOUR);
    const after = await watch.check();
    expect(after.counts).toEqual({ retry: 1, document: 0, review: 0 });
    expect(after.targets).toEqual({ retry: 24, document: 48, review: 72 });
    expect(notices).toEqual([
      expect.objectContaining({
        customerId: 'r1',
        title: 'Case overdue',
        body: expect.stringContaining('Rita Case'),
      }),
    ]);
    // Still overdue an hour later: counted, not announced again.
    time.advance(HOUR);
    expect((await watch.check()).counts.retry).toBe(1);
    expect(notices).toHaveLength(1);
    expect(counts).toHaveLength(4);

    time.advance(24 * HOUR);
    await watch.check();
    expect(notices.map((n) => n.customerId)).toEqual(['r1', 'd1']);
  });

  it('stays quiet when the setting is off, and sums up many cases going overdue at once', async () => {
    const { time, settings, notices, add, watch } = await setUp();
    for (const id of ['a', 'b', 'c', 'd', 'e']) await add(id, id.toUpperCase(), 'retry');
    await watch.check();
    settings.update({ overdueNotifications: false });
    time.advance(25 * HOUR);
    expect((await watch.check()).counts.retry).toBe(5);
    expect(notices).toEqual([]);

    await add('f', 'F', 'retry');
    for (const id of ['g', 'h', 'i', 'j']) await add(id, id.toUpperCase(), 'retry');
    settings.update({ overdueNotifications: true });
    time.advance(25 * HOUR);
    await watch.check();
    expect(notices).toEqual([expect.objectContaining({ title: 'Cases overdue', customerId: 'f' })]);
  });

  it('measures against the targets in Settings', async () => {
    const { time, settings, add, watch } = await setUp();
    await add('r1', 'Rita', 'retry');
    settings.update({ ageingTargets: { retry: 2, document: 48, review: 72 } });
    time.advance(3 * HOUR);
    expect((await watch.check()).counts.retry).toBe(1);
  });
});
