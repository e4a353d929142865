import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CustomerForm } from '#contract/drafts.ts';
import { createAutosaver, type SaveState } from '#renderer/features/drafts/autosave.ts';
import { deferred } from '#test/support/renderer/fake-api.ts';

const DELAY = 600;
const form = (firstName: string): CustomerForm => ({ type: 'personal', firstName });

function saverWith(id: string | null = null) {
  const states: SaveState['kind'][] = [];
  const create = vi.fn(async () => 'draft-1');
  const save = vi.fn(async (_id: string, _form: CustomerForm) => '2025-06-01T10:00:00.000Z');
  const saver = createAutosaver({
    id,
    delayMs: DELAY,
    create,
    save,
    onState: (state) => states.push(state.kind),
  });
  return { saver, create, save, states };
}

describe('autosave', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('saves once the reviewer pauses, the latest form only, creating the draft at its first save', async () => {
    const { saver, create, save, states } = saverWith();
    saver.schedule(form('A'));
    await vi.advanceTimersByTimeAsync(DELAY - 1);
    saver.schedule(form('Ad'));
    await vi.advanceTimersByTimeAsync(DELAY - 1);
    expect(save).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(create).toHaveBeenCalledTimes(1);
    expect(save).toHaveBeenCalledExactlyOnceWith('draft-1', form('Ad'));
    expect(states.at(-1)).toBe('saved');
    expect(saver.id()).toBe('draft-1');
  });

  it('leaves no draft behind for a form never typed in', async () => {
    const { saver, create } = saverWith();
    expect(await saver.flush()).toBeNull();
    expect(create).not.toHaveBeenCalled();
  });

  it('sends one save at a time, then one more with what was typed meanwhile', async () => {
    const { saver, save, states } = saverWith('draft-9');
    const first = deferred<string>();
    save.mockImplementationOnce(() => first.promise);
    saver.schedule(form('A'));
    await vi.advanceTimersByTimeAsync(DELAY);
    saver.schedule(form('Ab'));
    await vi.advanceTimersByTimeAsync(DELAY);
    expect(save).toHaveBeenCalledTimes(1);
    first.resolve('2025-06-01T10:00:00.000Z');
    await vi.advanceTimersByTimeAsync(0);
    expect(save).toHaveBeenCalledTimes(2);
    expect(save).toHaveBeenLastCalledWith('draft-9', form('Ab'));
    expect(states.at(-1)).toBe('saved');
  });

  it('flush saves what waits at once; a failure keeps it for the next try', async () => {
    const { saver, save, states } = saverWith('draft-9');
    save.mockRejectedValueOnce(new Error('offline'));
    saver.schedule(form('A'));
    await expect(saver.flush()).rejects.toThrow('offline');
    expect(states.at(-1)).toBe('failed');
    expect(await saver.flush()).toBe('draft-9');
    expect(save).toHaveBeenLastCalledWith('draft-9', form('A'));
    expect(states.at(-1)).toBe('saved');
  });

  it('cancel drops what waits (the draft is being discarded)', async () => {
    const { saver, save } = saverWith('draft-9');
    saver.schedule(form('A'));
    saver.cancel();
    await vi.advanceTimersByTimeAsync(DELAY * 2);
    expect(save).not.toHaveBeenCalled();
  });
});
