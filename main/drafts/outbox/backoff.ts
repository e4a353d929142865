/** How long a draft waits before the outbox sends it again after a failure that may pass. */
export interface Backoff {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { baseMs: 1_000, maxMs: 60_000 };

/** "Equal jitter": half the exponential delay fixed, half random, so a failing outbox never spins. */
export function resendDelayMs(failures: number, backoff: Backoff, random: () => number): number {
  const ceiling = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.min(failures - 1, 30));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
