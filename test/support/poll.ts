import { vi } from 'vitest';

type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/**
 * Waits until `condition` is truthy and returns what it returned: checked every 10 ms, for at most
 * `timeoutMs`. For work that happens on its own in real time (a sandbox delivering, an outbox
 * draining). The bound is generous because CI is a loaded 2-core machine: a slow pass costs time,
 * never a false failure; a condition that never holds still fails, with `what` in the message.
 * (Vitest's own `vi.waitUntil` gives up after one second by default.)
 */
export async function until<T>(
  condition: () => T | Promise<T>,
  what = 'the condition',
  timeoutMs = 15_000,
): Promise<Truthy<T>> {
  try {
    return (await vi.waitUntil(condition, { timeout: timeoutMs, interval: 10 })) as Truthy<T>;
  } catch (error) {
    throw new Error(`Waited ${timeoutMs} ms for ${what}: ${(error as Error).message}`);
  }
}
