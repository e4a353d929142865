import { describe, expect, it, vi } from 'vitest';
import { sharedWatch } from '#renderer/shared/data/watch.ts';

describe('shared watch', () => {
  it('starts with the first watcher and stops after the last, once', () => {
    const stop = vi.fn();
    const start = vi.fn(() => stop);
    const watch = sharedWatch(start);
    const first = watch();
    const second = watch();
    expect(start).toHaveBeenCalledTimes(1);
    first();
    first();
    expect(stop).not.toHaveBeenCalled();
    second();
    expect(stop).toHaveBeenCalledTimes(1);
    watch()();
    expect(start).toHaveBeenCalledTimes(2);
    expect(stop).toHaveBeenCalledTimes(2);
  });
});
