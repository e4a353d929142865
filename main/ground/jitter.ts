/**
 * The one wait after a failure, for every loop that tries again (HTTP requests in service/, the outbox's
 * resends): an exponential ceiling, from `baseMs` doubling per attempt up to `maxMs`, of which `fixedShare` is
 * always waited (a failing loop never spins) and the rest is random (clients that failed together do not come
 * back together). `attempt` is 0 for the first wait.
 */
export function jitteredDelayMs(
  attempt: number,
  limits: { baseMs: number; maxMs: number },
  random: () => number,
  fixedShare = 0,
): number {
  const ceiling = Math.min(limits.maxMs, limits.baseMs * 2 ** Math.min(attempt, 30));
  return Math.floor(ceiling * fixedShare + random() * ceiling * (1 - fixedShare));
}
