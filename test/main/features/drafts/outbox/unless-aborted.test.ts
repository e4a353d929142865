import { getEventListeners } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { unlessAborted } from '#main/features/drafts/outbox/unless-aborted.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe('unlessAborted', () => {
  it('passes the result or the rejection through while the signal holds', async () => {
    const signal = new AbortController().signal;
    await expect(unlessAborted(Promise.resolve(7), signal)).resolves.toBe(7);
    await expect(unlessAborted(Promise.reject(new Error('no')), signal)).rejects.toThrow('no');
  });

  it('gives up with undefined when the signal aborts, and when it already had', async () => {
    const controller = new AbortController();
    const pending = unlessAborted(new Promise<number>(() => {}), controller.signal);
    controller.abort();
    await expect(pending).resolves.toBeUndefined();
    await expect(unlessAborted(Promise.resolve(1), controller.signal)).resolves.toBeUndefined();
  });

  it('leaves nothing on a long-lived signal once the promise settles', async () => {
    const signal = new AbortController().signal;
    let result: object | undefined = { big: 'x'.repeat(10_000) };
    const held = new WeakRef(result);
    await unlessAborted(Promise.resolve(result), signal);
    await unlessAborted(Promise.reject(new Error('late')), signal).catch(() => {});
    result = undefined;
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    // A WeakRef's target is kept until the current job ends: collect on a later turn.
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    expect(held.deref()).toBeUndefined();
  });
});
