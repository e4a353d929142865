// Wrong unlock attempts: the first few are free (a typo is not an attack), then each further wrong attempt
// makes the desk wait, twice as long as the last wait, up to a cap. A right attempt clears the count.

export const FREE_ATTEMPTS = 5;
export const FIRST_WAIT_MS = 30_000;
export const MAX_WAIT_MS = 60 * 60_000;

export interface AttemptState {
  /** Wrong attempts in a row. */
  failures: number;
  /** Epoch ms before which no attempt is checked; 0 when none is waited for. */
  waitUntil: number;
}

export const NO_FAILURES: AttemptState = { failures: 0, waitUntil: 0 };

/** How long the desk waits after this many wrong attempts in a row. */
export function waitAfter(failures: number): number {
  if (failures < FREE_ATTEMPTS) return 0;
  const doublings = failures - FREE_ATTEMPTS;
  return Math.min(MAX_WAIT_MS, FIRST_WAIT_MS * 2 ** Math.min(doublings, 30));
}

export function afterFailure(state: AttemptState, now: number): AttemptState {
  const failures = state.failures + 1;
  const wait = waitAfter(failures);
  return { failures, waitUntil: wait > 0 ? now + wait : 0 };
}
