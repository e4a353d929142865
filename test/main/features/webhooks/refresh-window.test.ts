import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type EventInbox, openJournal, type SqliteJournal } from '#main/data/journal/index.ts';
import { createEventProcessor, type EventProcessor } from '#main/features/webhooks/event-processor.ts';
import type { Timers } from '#main/features/webhooks/refresh-window.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { createLogger } from '#main/ground/log/logger.ts';
import { inboxEvent } from '#test/support/inbox-event.ts';
import { until } from '#test/support/poll.ts';
import { reconcilerFrom } from './helpers.ts';

/** Timers that move only when the test says so. */
function manualTimers(): Timers & { advance(ms: number): void } {
  let now = 0;
  let due: Array<{ at: number; call: () => void }> = [];
  return {
    now: () => now,
    after(ms, call) {
      const entry = { at: now + ms, call };
      due.push(entry);
      return () => {
        due = due.filter((other) => other !== entry);
      };
    },
    advance(ms) {
      now += ms;
      const ready = due.filter((entry) => entry.at <= now);
      due = due.filter((entry) => entry.at > now);
      for (const entry of ready) entry.call();
    },
  };
}

/** Many events about one customer within the window cost one GET; a new customer is never held back. */
describe('refresh window', () => {
  let dir: string;
  let journal: SqliteJournal;
  let processor: EventProcessor;
  let inbox: EventInbox;
  let timers: ReturnType<typeof manualTimers>;
  const refreshes: Array<{ id: string; eventId: string | undefined }> = [];
  let seq = 0;

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-refresh-window-'));
    journal = openJournal({ file: path.join(dir, 'journal.db'), dataKey: createFieldKey() });
    timers = manualTimers();
    refreshes.length = 0;
    seq = 0;
    const reconciler = reconcilerFrom(journal, async (id, observation) => {
      refreshes.push({ id, eventId: observation.eventId });
      return undefined;
    });
    inbox = journal.openInbox();
    processor = createEventProcessor({
      journal,
      reconciler,
      writer: inbox,
      notify: () => {},
      log: createLogger(() => {}),
      coalesceMs: 500,
      timers,
    });
  });
  afterEach(async () => {
    await processor.close();
    await inbox.close();
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const event = async (customerId: string) => {
    const created = new Date(Date.UTC(2026, 2, 1, 10, 0, ++seq)).toISOString();
    return (await journal.events.record(inboxEvent(`e-${seq}`, { customerId, created }))).event;
  };

  it('refreshes a first event at once, then serves a burst with one GET at the end of the window', async () => {
    processor.enqueue([await event('c-1')]);
    await processor.idle();
    expect(refreshes).toEqual([{ id: 'c-1', eventId: 'e-1' }]);

    const burst = [await event('c-1'), await event('c-1'), await event('c-1')];
    processor.enqueue(burst);
    // Another customer is not held back by c-1's window.
    processor.enqueue([await event('c-2')]);
    await until(() => refreshes.length === 2, 'c-2 refreshed');
    expect(refreshes[1]).toEqual({ id: 'c-2', eventId: 'e-5' });
    // c-1's burst waits in memory, not refreshed: the clock has not moved (nothing else can move it).
    expect(processor.backlog).toBe(3);

    timers.advance(499);
    expect(processor.backlog).toBe(3);
    timers.advance(1);
    await processor.idle();
    // One GET for the three, credited to the newest of them.
    expect(refreshes).toEqual([
      { id: 'c-1', eventId: 'e-1' },
      { id: 'c-2', eventId: 'e-5' },
      { id: 'c-1', eventId: 'e-4' },
    ]);
    expect(await journal.events.unprocessed()).toEqual([]);
    expect(processor.processed).toBe(5);
  });

  it('refreshes again at once once the window is over', async () => {
    processor.enqueue([await event('c-1')]);
    await processor.idle();
    timers.advance(500);
    processor.enqueue([await event('c-1')]);
    await processor.idle();
    expect(refreshes.map((r) => r.eventId)).toEqual(['e-1', 'e-2']);
  });
});
