import { type Claim, type ClaimCounts, claimedByWords } from '#contract/claims.ts';
import type { CustomerDetail } from '#contract/customers.ts';
import { AGEING_SECTIONS } from '#contract/queue-view.ts';
import { dayKey, formatClockTime, formatCompactDateTime } from '#renderer/ui/time.tsx';

/** Who holds a case, in the queue's row: "You have this", "alice has this". */
export function holderWords(holder: string, me: string | null | undefined): string {
  return holder === me ? 'You have this' : `${holder} has this`;
}

/** When a claim began: the time today, else the day and time. */
export function sinceWords(since: string, now: number): string {
  return dayKey(since) === dayKey(now) ? formatClockTime(since) : formatCompactDateTime(since);
}

/** Who holds the case and since when, in the case's header: "alice has this since 10:42". */
export function claimWords(claim: Claim | null, now: number): string {
  if (!claim) return 'Nobody has this case yet.';
  return `${claim.mine ? 'You have this' : `${claim.holder} has this`} since ${sinceWords(claim.since, now)}`;
}

/** How it came to be held, when someone else made it so: "Reassigned by lee: check the address". */
export function claimOrigin(claim: Claim | null): string | null {
  if (!claim || claim.by === claim.holder) return null;
  const how = claim.how === 'takeOver' ? 'Taken over' : claim.how === 'reassign' ? 'Reassigned' : 'Given';
  return `${how} by ${claim.by}${claim.note ? `: ${claim.note}` : ''}`;
}

/**
 * The case as this reviewer may act on it: while another reviewer holds it, retry and upload say why not
 * before anything is asked of main (main refuses them too, in the same words).
 */
export function withClaim(customer: CustomerDetail, claim: Claim | null | undefined): CustomerDetail {
  if (!claim || claim.mine) return customer;
  const refused = { allowed: false, reason: claimedByWords(claim.holder) };
  return { ...customer, actions: { ...customer.actions, retry: refused, upload: refused } };
}

export interface HolderTally {
  /** Cases: held (a reviewer's) or waiting in a section with a target (nobody's). */
  count: number;
  overdue: number;
}

const sum = (counts: Record<string, number>) => AGEING_SECTIONS.reduce((n, s) => n + (counts[s] ?? 0), 0);

/** A holder's line in the queue's counts (null: nobody's cases); zeros for a reviewer holding nothing. */
export function tallyOf(counts: ClaimCounts | null, holder: string | null | 'mine'): HolderTally {
  const row = counts?.holders.find((each) =>
    holder === 'mine' ? each.mine : holder === null ? each.holder === null : each.holder === holder,
  );
  if (!row) return { count: 0, overdue: 0 };
  return { count: row.holder === null ? sum(row.waiting) : row.held, overdue: sum(row.overdue) };
}
