import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openJournal, type RecordedEvents, type SqliteJournal } from '#main/data/journal/index.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { flood } from '#test/support/flood.ts';
import { inboxEvent } from '#test/support/inbox-event.ts';
import { until } from '#test/support/poll.ts';

/** Deliveries answered at the pace of the inbox log, their table writes behind: durable all the same. */
describe('webhook inbox: events table behind the answers', () => {
  let dir: string;
  let dataKey: Buffer;
  let journal: SqliteJournal;
  const open = () => openJournal({ file: path.join(dir, 'journal.db'), dataKey });
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-inbox-behind-'));
    dataKey = createFieldKey();
    journal = open();
  });
  afterEach(async () => {
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers once logged, writes the table when the flood ends, and says so in order', async () => {
    const priority = flood();
    const recorded: RecordedEvents = [];
    const inbox = journal.openInbox({ priority, onRecorded: (events) => recorded.push(...events) });
    const used = inbox.log.used;
    const answers = await Promise.all(
      ['e-1', 'e-2', 'e-3'].map((id) => inbox.record([inboxEvent(id)], { delivered: true })),
    );
    expect(answers.flat().map((a) => [a.event.id, a.duplicate])).toEqual([
      ['e-1', false],
      ['e-2', false],
      ['e-3', false],
    ]);
    expect(inbox.log.used).toBeGreaterThan(used);
    expect(inbox.behind).toBe(3);
    expect(await journal.events.get('e-1')).toBeUndefined();
    expect(recorded).toEqual([]);

    priority.end();
    await until(() => inbox.behind === 0 && recorded.length === 3, 'the table written', 5_000);
    expect(recorded.map((r) => r.event.id)).toEqual(['e-1', 'e-2', 'e-3']);
    expect((await journal.events.get('e-2'))?.processedAt).toBeNull();
    await inbox.close();
  });

  it('replays what was behind when the app died, so no answered event is lost', async () => {
    const inbox = journal.openInbox({ priority: flood() });
    await inbox.record([inboxEvent('e-1'), inboxEvent('e-2', { processed: true })], { delivered: true });
    expect(inbox.behind).toBe(2);
    // Killed: no close, no flush. Only the log holds them.
    const survivor = open();
    try {
      const reopened = survivor.openInbox();
      expect(reopened.replayed).toBe(2);
      expect(await survivor.events.get('e-1')).toMatchObject({ id: 'e-1', processedAt: null });
      expect((await survivor.events.get('e-2'))?.processedAt).not.toBeNull();
      await reopened.close();
    } finally {
      await survivor.close();
    }
  });

  it('grows the log rather than start it over while events are behind', async () => {
    const inbox = journal.openInbox({ priority: flood(), chunkBytes: 4096 });
    for (let i = 0; i < 40; i++) await inbox.record([inboxEvent(`e-${i}`)], { delivered: true });
    expect(inbox.log.size).toBeGreaterThan(4096);
    expect(inbox.behind).toBe(40);
    await inbox.flush();
    expect(inbox.behind).toBe(0);
    expect(await journal.events.get('e-0')).toBeDefined();
    expect(await journal.events.get('e-39')).toBeDefined();
    await inbox.close();
  });

  it('writes regardless once the bound of events behind is reached', async () => {
    const inbox = journal.openInbox({ priority: flood(), maxBehind: 2 });
    await inbox.record([inboxEvent('e-1')], { delivered: true });
    await inbox.record([inboxEvent('e-2')], { delivered: true });
    await until(async () => (await journal.events.get('e-2')) !== undefined, 'e-2 in the table', 5_000);
    expect(await journal.events.get('e-1')).toBeDefined();
    await inbox.close();
  });
});
