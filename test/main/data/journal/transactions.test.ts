import { describe, expect, it } from 'vitest';
import { JournalError } from '#main/data/journal/index.ts';
import { uncheckedAction } from '#main/data/journal/repositories/audit.ts';
import { openTestJournal } from './helpers.ts';

/** The journal's unit of work, as callers use it: concurrently, across awaits, nested, and misused. */
describe('journal transactions', () => {
  const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

  it('runs many at once one after another, each whole: none joins, none undoes another', async () => {
    const journal = await openTestJournal();
    const order: string[] = [];
    const unit = (name: string) =>
      journal.transaction(async (tx) => {
        order.push(`${name} begins`);
        await tx.audit.record({ action: uncheckedAction(`${name}.first`), outcome: 'ok' });
        await tick(); // awaits inside the unit: others are waiting, not running
        await tx.audit.record({ action: uncheckedAction(`${name}.second`), outcome: 'ok' });
        order.push(`${name} ends`);
        return name;
      });
    const outcomes = await Promise.all(['a', 'b', 'c', 'd'].map(unit));
    expect(outcomes).toEqual(['a', 'b', 'c', 'd']);
    expect(order).toEqual([
      'a begins',
      'a ends',
      'b begins',
      'b ends',
      'c begins',
      'c ends',
      'd begins',
      'd ends',
    ]);
    const actions = (await journal.audit.list()).map((entry) => entry.action).reverse();
    expect(actions).toEqual(['a', 'b', 'c', 'd'].flatMap((name) => [`${name}.first`, `${name}.second`]));
  });

  it('rolls back one that fails without touching the ones queued behind it', async () => {
    const journal = await openTestJournal();
    const failing = journal.transaction(async (tx) => {
      await tx.audit.record({ action: uncheckedAction('lost'), outcome: 'ok' });
      await tick();
      throw new Error('the request failed');
    });
    const next = journal.transaction(async (tx) =>
      tx.audit.record({ action: uncheckedAction('kept'), outcome: 'ok' }),
    );
    await expect(failing).rejects.toThrow('the request failed');
    await next;
    expect((await journal.audit.list()).map((entry) => entry.action)).toEqual(['kept']);
  });

  it('lets a call outside wait for the unit under way, and refuses the journal itself inside one', async () => {
    const journal = await openTestJournal();
    let open!: () => void;
    const opened = new Promise<void>((resolve) => {
      open = resolve;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const unit = journal.transaction(async (tx) => {
      await tx.audit.record({ action: uncheckedAction('inside'), outcome: 'ok' });
      open();
      await released;
      await tx.audit.record({ action: uncheckedAction('inside.too'), outcome: 'ok' });
      await expect(journal.transaction(async () => {})).rejects.toBeInstanceOf(JournalError);
      await expect(journal.audit.list()).rejects.toBeInstanceOf(JournalError);
    });
    await opened;
    // Asked while the unit is open, from outside it: answered once it has committed, whole.
    const outside = journal.audit.list();
    release();
    await unit;
    expect((await outside).map((entry) => entry.action).sort()).toEqual(['inside', 'inside.too']);
  });

  it('nests a unit as a savepoint: its failure undoes only itself', async () => {
    const journal = await openTestJournal();
    await journal.transaction(async (tx) => {
      await tx.audit.record({ action: uncheckedAction('outer'), outcome: 'ok' });
      await expect(
        tx.transaction(async (inner) => {
          await inner.audit.record({ action: uncheckedAction('inner'), outcome: 'ok' });
          throw new Error('inner failed');
        }),
      ).rejects.toThrow('inner failed');
    });
    expect((await journal.audit.list()).map((entry) => entry.action)).toEqual(['outer']);
  });
});
