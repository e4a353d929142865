import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { statements } from '#main/data/journal/db.ts';
import type { LogInbox } from '#main/data/journal/event-inbox.ts';
import { openJournal, type RecordedEvents, type SqliteJournal } from '#main/data/journal/index.ts';
import { createKnownEvents } from '#main/data/journal/known-events.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { inboxEvent } from '#test/support/inbox-event.ts';

const event = (id: string) => inboxEvent(id);

/** Redeliveries told apart in memory: no log record, no sync, the same answer and count as before. */
describe('known events', () => {
  let dir: string;
  let dataKey: Buffer;
  let journal: SqliteJournal;
  let inbox: LogInbox;
  const open = () => {
    journal = openJournal({ file: path.join(dir, 'journal.db'), dataKey });
    inbox = journal.openInbox();
  };
  const close = async () => {
    await inbox.close();
    await journal.close();
  };
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-known-events-'));
    dataKey = createFieldKey();
    open();
  });
  afterEach(async () => {
    await close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts a redelivery without a log record, also after a restart', async () => {
    const [first] = await inbox.record([event('e-1')], { delivered: true });
    expect(first).toMatchObject({ duplicate: false, event: { id: 'e-1', duplicatesSeen: 0 } });
    // In the table (it goes there behind the answer): a redelivery is counted there.
    await inbox.flush();
    const used = inbox.log.used;
    const writes = inbox.stats.writes;

    const [again] = await inbox.record([event('e-1')], { delivered: true });
    expect(again).toMatchObject({ duplicate: true, event: { id: 'e-1', duplicatesSeen: 1 } });
    expect(inbox.log.used).toBe(used);
    expect(inbox.stats.writes).toBe(writes);
    expect((await journal.events.get('e-1'))?.duplicatesSeen).toBe(1);

    await close();
    open();
    expect(inbox.knownEvents).toBe(1);
    const usedAfterRestart = inbox.log.used;
    const [third] = await inbox.record([event('e-1')], { delivered: true });
    expect(third).toMatchObject({ duplicate: true, event: { duplicatesSeen: 2 } });
    expect(inbox.log.used).toBe(usedAfterRestart);
  });

  it('leaves a fetched event it knows alone, and records the new ones of the same batch', async () => {
    await inbox.record([event('e-1')], { delivered: true });
    await inbox.flush();
    const results = await inbox.record([event('e-1'), event('e-2')], { delivered: false });
    expect(results.map((r) => [r.event.id, r.duplicate])).toEqual([['e-2', false]]);
    await inbox.flush();
    expect((await journal.events.get('e-1'))?.duplicatesSeen).toBe(0);
    // Mixed with a known one, a new delivery still takes the durable path.
    const mixed = await inbox.record([event('e-2'), event('e-3')], { delivered: true });
    expect(mixed.map((r) => [r.event.id, r.duplicate])).toEqual([
      ['e-2', true],
      ['e-3', false],
    ]);
    expect(inbox.knownEvents).toBe(3);
  });

  it('leaves an event it does not know to the journal, which still tells a redelivery apart', async () => {
    // Recorded some other way than through this inbox (or forgotten by it): not known in memory.
    await inbox.close();
    const recorded: RecordedEvents = [];
    inbox = journal.openInbox({ onRecorded: (events) => recorded.push(...events) });
    await journal.events.record(event('e-9'));
    // Answered as new (nothing in memory says otherwise); the table counts it, and says so once written.
    const [again] = await inbox.record([event('e-9')], { delivered: true });
    expect(again).toMatchObject({ duplicate: false, event: { id: 'e-9' } });
    await inbox.flush();
    expect(recorded).toMatchObject([{ duplicate: true, event: { id: 'e-9', duplicatesSeen: 1 } }]);
    expect((await journal.events.get('e-9'))?.duplicatesSeen).toBe(1);
  });

  it('loads the newest at start up to its bound, and forgets the oldest beyond it', async () => {
    for (const id of ['e-1', 'e-2', 'e-3']) await inbox.record([event(id)], { delivered: true });
    await inbox.flush();
    const db = new DatabaseSync(path.join(dir, 'journal.db'), { readOnly: true });
    try {
      const known = createKnownEvents(statements(db), () => new Date(), 2);
      expect([known.has('e-1'), known.has('e-2'), known.has('e-3')]).toEqual([false, true, true]);
      known.add(['e-4']);
      expect([known.has('e-2'), known.has('e-3'), known.has('e-4')]).toEqual([false, true, true]);
    } finally {
      db.close();
    }
  });
});
