// Desks appending to the team's audit chain at once: the head's lock makes them take turns, so the chain
// never forks and its entries are numbered without a gap; and a unit of work that appends and also draws a
// change number never waits on another in a circle (CHANGE_LOCK is always taken before the head).
import { describe, expect, it } from 'vitest';
import { auditSealer } from '#main/data/journal/audit-chain.ts';
import { chainChecker } from '#main/data/journal/audit-verify.ts';
import type { Journal } from '#main/data/journal/index.ts';
import { connectTo, openDesk, teamStore } from '#test/support/team/team-journal.ts';

async function chainOf(journal: Journal, teamKey: Buffer) {
  const checker = chainChecker({ sealer: auditSealer(teamKey), whole: true });
  const entries = await journal.audit.linked({ limit: 10_000 });
  for (const entry of entries) checker.add(entry);
  return { entries, summary: checker.finish(await journal.audit.head()) };
}

describe('desks appending to the audit chain at once', () => {
  it('never fork it: every entry follows the one before, numbered 1, 2, 3… whichever desk wrote it', async () => {
    const store = await teamStore();
    const desks = [await openDesk(store), await openDesk(store), await openDesk(store)];
    await Promise.all(
      desks.flatMap((desk, d) => [
        ...Array.from({ length: 20 }, (_, i) =>
          desk.journal.audit.record({ action: 'note.add', outcome: 'ok', detail: `desk ${d} entry ${i}` }),
        ),
        desk.journal.transaction(async (tx) => {
          await tx.audit.record({ action: 'customer.retry', outcome: 'ok', detail: `desk ${d} unit` });
          await tx.audit.record({ action: 'retry.open', outcome: 'ok', detail: `desk ${d} unit` });
        }),
      ]),
    );
    const { entries, summary } = await chainOf(desks[1]!.journal, store.teamKey);
    expect(summary.entries).toBe(66);
    expect(entries.map((entry) => entry.seq)).toEqual(Array.from({ length: 66 }, (_, i) => i + 1));
    // A unit's two entries are next to each other: nobody appended between them.
    for (const d of [0, 1, 2]) {
      const unit = entries.filter((entry) => entry.detail === `desk ${d} unit`).map((entry) => entry.seq);
      expect(unit[1]! - unit[0]!).toBe(1);
    }
  });

  it('lets a unit that appends and then writes a note, and one that does the reverse, both finish', async () => {
    const store = await teamStore();
    const [a, b] = [await openDesk(store), await openDesk(store)];
    const monitor = await connectTo(store.url);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let aRecorded = false;
    let bWroteNote = false;
    // A holds the chain's head, and then wants a change number; B takes a change number, then the head.
    const first = a.journal.transaction(async (tx) => {
      await tx.audit.record({ action: 'note.add', outcome: 'ok', detail: 'a' });
      aRecorded = true;
      await gate;
      await tx.notes.add({ customerId: 'c-1', text: 'from a' });
    });
    await expect.poll(() => aRecorded).toBe(true);
    const second = b.journal.transaction(async (tx) => {
      await tx.notes.add({ customerId: 'c-1', text: 'from b' });
      bWroteNote = true;
      await tx.audit.record({ action: 'note.add', outcome: 'ok', detail: 'b' });
    });
    // B has its change number, or waits for it behind A: either way A may go on.
    await expect
      .poll(async () => {
        if (bWroteNote) return true;
        const { rows } = await monitor.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        return rows[0]!.n > 0;
      })
      .toBe(true);
    release();
    await Promise.all([first, second]);
    const { entries } = await chainOf(a.journal, store.teamKey);
    expect(entries.map((entry) => entry.detail)).toEqual(['a', 'b']);
    expect((await a.journal.notes.list('c-1')).map((note) => note.text).sort()).toEqual(['from a', 'from b']);
  });
});
