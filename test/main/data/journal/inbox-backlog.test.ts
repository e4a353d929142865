import { afterEach, describe, expect, it, vi } from 'vitest';
import { createInboxBacklog } from '#main/data/journal/inbox-backlog.ts';
import type { InboxPriority } from '#main/data/journal/index.ts';
import { until } from '#test/support/poll.ts';

/** A priority the test turns busy and quiet by hand. */
function handPriority() {
  let waiting: Array<() => void> = [];
  const priority: InboxPriority & { busy: boolean; quiet(): void; readonly waiters: number } = {
    busy: false,
    onQuiet: (callback) => waiting.push(callback),
    quiet() {
      priority.busy = false;
      const callbacks = waiting;
      waiting = [];
      for (const callback of callbacks) callback();
    },
    get waiters() {
      return waiting.length;
    },
  };
  return priority;
}

function rig(options: { maxEvents?: number; batchEvents?: number } = {}) {
  const priority = handPriority();
  const batches: string[][] = [];
  const backlog = createInboxBacklog<string>({
    priority,
    ...options,
    async write(batch) {
      batches.push(batch);
    },
  });
  const written = () => batches.flat();
  return { priority, backlog, batches, written };
}

/** The events table's writes behind the answers: at once when quiet, held while busy, within a bound. */
describe('inbox backlog', () => {
  it('writes on the next turn when deliveries are few, in the order asked', async () => {
    const { backlog, written } = rig();
    backlog.push('a', 1);
    backlog.push('mark a', 0);
    backlog.push('b', 1);
    expect(backlog.events).toBe(2);
    await until(() => written().length === 3, 'the writes', 5_000);
    expect(written()).toEqual(['a', 'mark a', 'b']);
    expect(backlog.events).toBe(0);
    expect(backlog.idle).toBe(true);
  });

  it('holds writes while busy and writes them all, in order, once quiet', async () => {
    const { priority, backlog, written } = rig();
    priority.busy = true;
    for (const item of ['a', 'b', 'c']) backlog.push(item, 1);
    expect(priority.waiters).toBe(1);
    expect(backlog.events).toBe(3);
    expect(backlog.idle).toBe(false);
    // Nothing can have been written: writing only starts from the quiet callback, which has not run.
    expect(written()).toEqual([]);
    priority.quiet();
    await until(() => backlog.idle, 'the backlog written', 5_000);
    expect(written()).toEqual(['a', 'b', 'c']);
  });

  it('holds a batch asked for while quiet if deliveries turned busy before its turn', async () => {
    const { priority, backlog, written } = rig();
    backlog.push('a', 1); // quiet: its batch is asked for on the next turn
    priority.busy = true; // the deliveries read before that turn make a flood again
    await until(() => priority.waiters === 1, 'the backlog waiting for quiet', 5_000);
    // Nothing can have been written: writing only starts from the quiet callback, which has not run.
    expect(written()).toEqual([]);
    priority.quiet();
    await until(() => backlog.idle, 'the backlog written', 5_000);
    expect(written()).toEqual(['a']);
  });

  it('writes regardless of deliveries once the bound is reached (backpressure)', async () => {
    const { priority, backlog, written } = rig({ maxEvents: 3 });
    priority.busy = true;
    backlog.push('a', 1);
    backlog.push('b', 1);
    expect(written()).toEqual([]);
    backlog.push('c', 1);
    await until(() => written().length === 3, 'the writes past the bound', 5_000);
    expect(written()).toEqual(['a', 'b', 'c']);
  });

  it('flush writes what was asked before it, busy or not', async () => {
    const { priority, backlog, written } = rig();
    priority.busy = true;
    backlog.push('a', 1);
    backlog.push('b', 1);
    await backlog.flush();
    expect(written()).toEqual(['a', 'b']);
    await backlog.flush();
    expect(written()).toEqual(['a', 'b']);
  });

  it('writes in batches of at most batchEvents events, a heavier write alone', async () => {
    const { backlog, batches } = rig({ batchEvents: 2 });
    backlog.push('a', 1);
    backlog.push('b', 1);
    backlog.push('c', 1);
    backlog.push('big', 5);
    backlog.push('mark', 0);
    await backlog.flush();
    expect(batches).toEqual([['a', 'b'], ['c'], ['big'], ['mark']]);
  });

  describe('soon writes (marks, refusals)', () => {
    afterEach(() => vi.useRealTimers());

    it('wait up to soonMs for company, then go', async () => {
      vi.useFakeTimers();
      const { backlog, written } = rig();
      backlog.push('mark a', 0, 'soon');
      await vi.advanceTimersByTimeAsync(49);
      expect(written()).toEqual([]);
      backlog.push('mark b', 0, 'soon');
      await vi.advanceTimersByTimeAsync(1);
      await vi.runOnlyPendingTimersAsync(); // the write's turn of the event loop
      expect(written()).toEqual(['mark a', 'mark b']);
    });

    it('go at once with a write asked for now, in the order asked', async () => {
      vi.useFakeTimers();
      const { backlog, written } = rig();
      backlog.push('mark a', 0, 'soon');
      backlog.push('b', 1);
      await vi.advanceTimersByTimeAsync(0);
      expect(written()).toEqual(['mark a', 'b']);
    });
  });
});
