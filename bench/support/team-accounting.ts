/**
 * The team bench's accounts, from what the store recorded and what each desk pushed. A delivery's change is
 * the hub's refresh of the customer it names: each delivery is about a customer no other delivery names for
 * far longer than a refresh takes, and whose refresh writes one change (no documents to read), so every desk
 * must push `customer.updated` for that customer exactly once between the hub's receipt of the delivery and
 * the hub's receipt of the next one about it, unless a hub took the listener role meanwhile (below). Latency: from the receipt (the hub's clock, as it records the
 * delivery) to the push (the desk's clock; one machine, one clock).
 */
import { quantile } from './protocol.ts';

export interface Receipt {
  customerId: string;
  /** Epoch ms: the hub's `received_at`. */
  receivedAt: number;
}

export interface DeskUpdates {
  name: string;
  /** [customer, epoch ms] for each `customer.updated` the desk pushed. */
  updates: ReadonlyArray<readonly [string, number]>;
}

export interface ChangeAccount {
  /** Every (delivery, desk) pair's latency, ms. */
  latencies: number[];
  /** Per delivery, the first desk's and the last desk's latency (ms; NaN where a desk missed it). */
  first: number[];
  last: number[];
  missed: number;
  twice: number;
  pairs: number;
  /**
   * Pairs pushed again after a hub took the listener role within their window: that hub's refresh of every
   * case in progress wrote the customer once more, a change of its own (not counted as seen twice).
   */
  rewritten: number;
  /** Per desk: pairs it missed or saw twice. */
  byDesk: Map<string, { missed: number; twice: number }>;
}

/** Times of each customer's pushes, sorted. */
function pushesByCustomer(updates: DeskUpdates['updates']): Map<string, number[]> {
  const byCustomer = new Map<string, number[]>();
  for (const [id, at] of updates) {
    const list = byCustomer.get(id);
    if (list) list.push(at);
    else byCustomer.set(id, [at]);
  }
  for (const list of byCustomer.values()) list.sort((a, b) => a - b);
  return byCustomer;
}

/** `roleTakenAt`: when a hub took the listener role during the run (epoch ms, from its log). */
export function accountChanges(
  receipts: readonly Receipt[],
  desks: readonly DeskUpdates[],
  roleTakenAt: readonly number[] = [],
): ChangeAccount {
  // Each receipt's window ends at the next receipt about the same customer.
  const sorted = [...receipts].sort((a, b) => a.receivedAt - b.receivedAt);
  const nextOf = new Map<Receipt, number>();
  const lastSeen = new Map<string, Receipt>();
  for (const receipt of sorted) {
    const previous = lastSeen.get(receipt.customerId);
    if (previous) nextOf.set(previous, receipt.receivedAt);
    lastSeen.set(receipt.customerId, receipt);
  }
  const account: ChangeAccount = {
    latencies: [],
    first: [],
    last: [],
    missed: 0,
    twice: 0,
    pairs: 0,
    rewritten: 0,
    byDesk: new Map(desks.map((desk) => [desk.name, { missed: 0, twice: 0 }])),
  };
  const pushes = desks.map((desk) => ({ name: desk.name, byCustomer: pushesByCustomer(desk.updates) }));
  for (const receipt of sorted) {
    const end = nextOf.get(receipt) ?? Number.POSITIVE_INFINITY;
    const seen: number[] = [];
    for (const desk of pushes) {
      account.pairs++;
      const times = (desk.byCustomer.get(receipt.customerId) ?? []).filter(
        (at) => at >= receipt.receivedAt && at < end,
      );
      const tally = account.byDesk.get(desk.name)!;
      if (times.length === 0) {
        account.missed++;
        tally.missed++;
        continue;
      }
      const again = times.slice(1);
      const rewrites = again.filter((at) => roleTakenAt.some((t) => t >= receipt.receivedAt && t <= at));
      if (again.length > rewrites.length) {
        account.twice++;
        tally.twice++;
      } else if (rewrites.length > 0) account.rewritten++;
      const latency = times[0]! - receipt.receivedAt;
      account.latencies.push(latency);
      seen.push(latency);
    }
    const complete = seen.length === desks.length;
    account.first.push(seen.length > 0 ? Math.min(...seen) : Number.NaN);
    account.last.push(complete ? Math.max(...seen) : Number.NaN);
  }
  return account;
}

/** p50, p99 and max of a list, NaN entries left out. */
export function spread(values: readonly number[]): { p50: number; p99: number; max: number; n: number } {
  const present = values.filter((value) => !Number.isNaN(value));
  return {
    p50: quantile(present, 0.5),
    p99: quantile(present, 0.99),
    max: present.length > 0 ? present.reduce((a, b) => Math.max(a, b)) : Number.NaN,
    n: present.length,
  };
}
