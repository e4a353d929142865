import { jitteredDelayMs } from '#main/ground/jitter.ts';

/** How long a draft waits before the outbox sends it again after a failure that may pass. */
export interface Backoff {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { baseMs: 1_000, maxMs: 60_000 };

/** "Equal jitter": half the delay fixed, half random, so a failing outbox never spins. */
export function resendDelayMs(failures: number, backoff: Backoff, random: () => number): number {
  return jitteredDelayMs(failures - 1, backoff, random, 0.5);
}
