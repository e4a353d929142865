/**
 * The team bench's accounts of changes, by the store's change (its version of a customer), not by delivery:
 * when two deliveries about one customer arrive close together, the hub's one refresh (or a desk's one
 * catch-up, which reads only the customer's newest row) rightly covers both, so "one push per delivery" is
 * not what a team owes its desks. What it owes: every desk shows every delivery's change, or a newer one.
 *
 * - A delivery's change: the smallest change number the store wrote for its customer at or after the hub's
 *   receipt of it (the hub's refresh for it, or a later one), from the bench's log of customer writes
 *   (`installChangeLog`). A delivery after which nothing was written is counted apart: the hub's, not a desk's.
 * - Latency, per desk: from the receipt (the hub's clock) to the desk's first `customer.updated` push of that
 *   customer at that version or newer (the desk's clock; one machine, one clock). None: missed.
 * - Seen twice, per desk: a (customer, version) it pushed more than once. A hub taking the listener role
 *   refreshes every case in progress and writes new versions: new changes, not repeats.
 */
import type pg from 'pg';
import { quantile } from './protocol.ts';

export interface Receipt {
  customerId: string;
  /** Epoch ms: the hub's `received_at`. */
  receivedAt: number;
}

/** One write of a customer in the store, from the bench's log. */
export interface LoggedChange {
  customerId: string;
  seq: number;
  /** Epoch ms (fractional: the store's clock is finer), when the write ran. */
  at: number;
}

/** [customer, the desk's replica version of it at the push (-1: unread), epoch ms of the push]. */
export type Push = readonly [customerId: string, teamSeq: number, at: number];

export interface DeskUpdates {
  name: string;
  /** Each `customer.updated` the desk pushed. */
  updates: ReadonlyArray<Push>;
}

export interface ChangeAccount {
  /** Every (delivery, desk) pair's latency, ms. */
  latencies: number[];
  /** Per delivery with a change, the first desk's and the last desk's latency (ms; NaN where a desk missed it). */
  first: number[];
  last: number[];
  /** (delivery with a change, desk) pairs the desk never pushed that change, nor a newer one, for. */
  missed: number;
  /** (customer, version) pairs a desk pushed more than once, summed over the desks. */
  twice: number;
  pairs: number;
  /** Deliveries after whose receipt the store logged no write of their customer at all. */
  noChange: number;
  /** Per desk: the pairs it missed, the versions it pushed twice. */
  byDesk: Map<string, { missed: number; twice: number }>;
}

/**
 * Installs the bench's log of customer writes (the administrator's connection). It costs the store one small
 * insert per change; it is the bench's, not Vetted's. The function runs as its owner (SECURITY DEFINER), so
 * the hubs' and desks' logins fire it without any grant on the log.
 */
export async function installChangeLog(admin: pg.ClientBase): Promise<void> {
  await admin.query(`
    CREATE SCHEMA bench_log;
    CREATE TABLE bench_log.customer_changes (
      customer_id text NOT NULL,
      seq bigint NOT NULL,
      at timestamptz NOT NULL DEFAULT clock_timestamp()
    );
    CREATE FUNCTION bench_log.log_customer_change() RETURNS trigger
      LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
    BEGIN
      INSERT INTO bench_log.customer_changes (customer_id, seq) VALUES (NEW.id, NEW.seq);
      RETURN NULL;
    END $$;
    CREATE TRIGGER bench_log_customer_changes AFTER INSERT OR UPDATE ON vetted.customers
      FOR EACH ROW EXECUTE FUNCTION bench_log.log_customer_change();`);
}

/** The logged writes of these customers. */
export async function readChangeLog(
  admin: pg.ClientBase,
  customerIds: readonly string[],
): Promise<LoggedChange[]> {
  // bigint and numeric arrive as strings.
  const { rows } = await admin.query<{ customer_id: string; seq: string; at: string }>(
    `SELECT customer_id, seq, extract(epoch FROM at) * 1000 AS at
       FROM bench_log.customer_changes WHERE customer_id = ANY($1::text[])`,
    [customerIds],
  );
  return rows.map((row) => ({ customerId: row.customer_id, seq: Number(row.seq), at: Number(row.at) }));
}

function groupBy<T>(items: Iterable<T>, key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

/** The smallest change number of a customer written at or after a time (undefined: none). */
function changeAfter(
  log: readonly LoggedChange[],
): (customerId: string, since: number) => number | undefined {
  const byCustomer = new Map<string, { at: number[]; minSeqFrom: number[] }>();
  for (const [id, writes] of groupBy(log, (change) => change.customerId)) {
    writes.sort((a, b) => a.at - b.at);
    // minSeqFrom[i]: the smallest seq among writes i.. (whatever order the writes logged their seqs in).
    const minSeqFrom = writes.map((write) => write.seq);
    for (let i = minSeqFrom.length - 2; i >= 0; i--)
      minSeqFrom[i] = Math.min(minSeqFrom[i]!, minSeqFrom[i + 1]!);
    byCustomer.set(id, { at: writes.map((write) => write.at), minSeqFrom });
  }
  return (customerId, since) => {
    const writes = byCustomer.get(customerId);
    if (!writes) return undefined;
    let low = 0;
    let high = writes.at.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (writes.at[mid]! < since) low = mid + 1;
      else high = mid;
    }
    return writes.minSeqFrom[low];
  };
}

/** (customer, version) pairs pushed more than once; versions that could not be read (-1) left out. */
function repeatedVersions(updates: DeskUpdates['updates']): number {
  const times = new Map<string, number>();
  for (const [id, seq] of updates) {
    if (seq < 0) continue;
    const key = `${id}\u0000${seq}`;
    times.set(key, (times.get(key) ?? 0) + 1);
  }
  return [...times.values()].filter((n) => n > 1).length;
}

export function accountChanges(
  receipts: readonly Receipt[],
  log: readonly LoggedChange[],
  desks: readonly DeskUpdates[],
): ChangeAccount {
  const changeOf = changeAfter(log);
  const account: ChangeAccount = {
    latencies: [],
    first: [],
    last: [],
    missed: 0,
    twice: 0,
    pairs: 0,
    noChange: 0,
    byDesk: new Map(desks.map((desk) => [desk.name, { missed: 0, twice: 0 }])),
  };
  const pushes = desks.map((desk) => {
    const byCustomer = groupBy(desk.updates, ([id]) => id);
    for (const list of byCustomer.values()) list.sort((a, b) => a[2] - b[2]);
    const twice = repeatedVersions(desk.updates);
    account.twice += twice;
    account.byDesk.get(desk.name)!.twice += twice;
    return { name: desk.name, byCustomer };
  });
  for (const receipt of receipts) {
    const change = changeOf(receipt.customerId, receipt.receivedAt);
    if (change === undefined) {
      account.noChange++;
      continue;
    }
    const seen: number[] = [];
    for (const desk of pushes) {
      account.pairs++;
      const push = desk.byCustomer.get(receipt.customerId)?.find(([, seq]) => seq >= change);
      if (!push) {
        account.missed++;
        account.byDesk.get(desk.name)!.missed++;
        continue;
      }
      const latency = push[2] - receipt.receivedAt;
      account.latencies.push(latency);
      seen.push(latency);
    }
    account.first.push(seen.length > 0 ? Math.min(...seen) : Number.NaN);
    account.last.push(seen.length === desks.length ? Math.max(...seen) : Number.NaN);
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
