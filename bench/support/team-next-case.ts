/**
 * Claims under contention (#29): every desk of the team bench asks `claims.next` (the reviewer's "next case"
 * key, through the desk's own channel) at the same instant, `rounds` times. The instant is an epoch time the
 * bench gives every desk process, so the desks of fifty processes ask together, as fifty reviewers pressing
 * the key at once would. Each answer is timed from the call to the desk's answer (which includes the desk's
 * replica catching up with its own claim) and checked against the store: every case taken by exactly one
 * desk, each held by the login of the desk that was told it has it.
 */
import type pg from 'pg';
import { atMost, type ResultRow } from './protocol.ts';
import { spread } from './team-accounting.ts';
import type { Call } from './team-desk-work.ts';

export interface NextCaseTake {
  /** The case the desk was given (null: none waited, or an error). */
  customerId: string | null;
  holder: string | null;
  ms: number;
  error?: string;
}

export interface NextCaseRounds {
  /** Epoch ms of the first round; round r starts at `at + r × gapMs`. */
  at: number;
  rounds: number;
  gapMs: number;
}

/** Resolves at `epochMs` (at once if it has passed): rounds every process begins at the same instant. */
export const sleepUntil = (epochMs: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, epochMs - Date.now())));

/** One desk's takes: at each round's instant, one `claims.next`. */
export async function takeNextCases(
  call: Call,
  { at, rounds, gapMs }: NextCaseRounds,
): Promise<NextCaseTake[]> {
  const takes: NextCaseTake[] = [];
  for (let round = 0; round < rounds; round++) {
    await sleepUntil(at + round * gapMs);
    const started = performance.now();
    try {
      const { claim } = await call('claims.next');
      const ms = performance.now() - started;
      takes.push({ customerId: claim?.customerId ?? null, holder: claim?.mine ? claim.holder : null, ms });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      takes.push({ customerId: null, holder: null, ms: performance.now() - started, error: message });
    }
  }
  return takes;
}

export interface NextCaseAccount {
  takes: number;
  errors: string[];
  /** Cases no desk was given although one waited (a desk answered none while cases were left). */
  empty: number;
  /** Cases given to more than one desk, or held in the store by another login than the desk told. */
  doubled: number;
  /** Cases a desk was told it holds that the store does not show it holding. */
  unheld: number;
  ms: number[];
}

/** Every take against the store's claims: each case one desk's, held by that desk's login. */
export async function accountNextCases(
  db: pg.ClientBase,
  byDesk: ReadonlyArray<{ login: string; takes: readonly NextCaseTake[] }>,
  waitingBefore: number,
): Promise<NextCaseAccount> {
  const { rows } = await db.query<{ customer_id: string; holder: string }>(
    `SELECT customer_id, holder FROM vetted.claims WHERE holder IS NOT NULL AND how = 'next'`,
  );
  const heldBy = new Map(rows.map((row) => [row.customer_id, row.holder]));
  const givenTo = new Map<string, string[]>();
  const account: NextCaseAccount = { takes: 0, errors: [], empty: 0, doubled: 0, unheld: 0, ms: [] };
  for (const { login, takes } of byDesk) {
    for (const take of takes) {
      account.ms.push(take.ms);
      if (take.error) account.errors.push(take.error);
      if (!take.customerId) continue;
      account.takes++;
      givenTo.set(take.customerId, [...(givenTo.get(take.customerId) ?? []), login]);
      if (heldBy.get(take.customerId) !== login || take.holder !== login) account.unheld++;
    }
  }
  for (const logins of givenTo.values()) if (logins.length > 1) account.doubled += logins.length - 1;
  // The store holds no claim of `next` that no desk was told of (a take whose answer was lost).
  account.doubled += [...heldBy.keys()].filter((id) => !givenTo.has(id)).length;
  const asked = byDesk.reduce((n, desk) => n + desk.takes.length, 0);
  account.empty = Math.min(asked, waitingBefore) - account.takes - account.errors.length;
  return account;
}

/** Cases in the sections `claims.next` takes from, unclaimed, now. */
export async function unclaimedWaiting(db: pg.ClientBase): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM vetted.customers c LEFT JOIN vetted.claims k ON k.customer_id = c.id
      WHERE c.gone_at IS NULL AND c.section IN ('retry', 'document', 'review') AND k.holder IS NULL`,
  );
  return rows[0]!.n;
}

/**
 * Exactly one holder, p99 ≤ 50 ms, and p99 ≤ 3× the floor's p99 (claims-floor.ts: the same number of takes at
 * once, each the least a take can be, in rounds between the desks' rounds).
 */
export function nextCaseRows(
  account: NextCaseAccount,
  desks: number,
  floorMs: readonly number[],
  load: string,
): ResultRow[] {
  const all = spread(account.ms);
  const floor = spread(floorMs);
  const wrong = account.doubled + account.unheld + account.empty + account.errors.length;
  const calls = `p99 ${all.p99.toFixed(1)} ms (p50 ${all.p50.toFixed(1)}, max ${all.max.toFixed(1)}; ${all.n} calls)`;
  const floorText = `floor p99 ${floor.p99.toFixed(1)} ms (p50 ${floor.p50.toFixed(1)}; ${floor.n} takes)`;
  return [
    {
      figure: `claims.next, ${desks} desks at once, every case taken by exactly one desk`,
      goal: '0 wrong',
      measured:
        `${account.takes} taken; doubled ${account.doubled}, not held as told ${account.unheld}, ` +
        `none while cases waited ${account.empty}, errors ${account.errors.length} (${load})`,
      ratio: wrong,
      verdict: wrong === 0 && account.takes > 0 ? 'pass' : 'miss',
    },
    atMost(
      `claims.next, ${desks} desks at once, call → answer (p99)`,
      all.p99,
      50,
      ' ms',
      `${calls} (${load})`,
    ),
    atMost(
      `claims.next, ${desks} desks at once, p99 ÷ the floor's p99 (${desks} takes at once of a claim and its audit entry at the chain's head, committed)`,
      all.p99 / floor.p99,
      3,
      '×',
      `${(all.p99 / floor.p99).toFixed(2)}× (${calls}; ${floorText}) (${load})`,
    ),
  ];
}
