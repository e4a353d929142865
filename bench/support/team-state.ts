/**
 * Where the team bench's team stands: the store (its customers, its last change, events not processed yet,
 * drafts not sent yet) and each desk's replica (read from its journal file while the desk runs: SQLite lets a
 * reader in beside the writer), and the wait until every desk has every change.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type pg from 'pg';

export interface StoreState {
  customers: number;
  /** The sum of the customers' change numbers: equal in a replica that holds every row as the store does. */
  seqSum: number;
  /** The newest change in any replicated table. */
  lastChange: number;
  unprocessed: number;
  queuedDrafts: number;
}

export async function storeState(db: pg.ClientBase): Promise<StoreState> {
  const { rows } = await db.query<Record<keyof StoreState, string>>(
    `SELECT (SELECT count(*) FROM vetted.customers) AS customers,
            (SELECT coalesce(sum(seq), 0) FROM vetted.customers) AS "seqSum",
            greatest((SELECT max(seq) FROM vetted.customers), (SELECT max(seq) FROM vetted.status_history),
                     (SELECT max(seq) FROM vetted.notes), (SELECT max(seq) FROM vetted.retries)) AS "lastChange",
            (SELECT count(*) FROM vetted.events WHERE processed_at IS NULL) AS unprocessed,
            (SELECT count(*) FROM vetted.team_outbox WHERE state = 'queued') AS "queuedDrafts"`,
  );
  const row = rows[0]!;
  return {
    customers: Number(row.customers),
    seqSum: Number(row.seqSum),
    lastChange: Number(row.lastChange),
    unprocessed: Number(row.unprocessed),
    queuedDrafts: Number(row.queuedDrafts),
  };
}

export interface ReplicaState {
  customers: number;
  seqSum: number;
  lastSeq: number;
}

/** The replica in a desk's journal file. */
export function replicaState(file: string): ReplicaState {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const customers = db.prepare('SELECT count(*) AS n, total(team_seq) AS sum FROM customers').get() as {
      n: number;
      sum: number;
    };
    const state = db.prepare('SELECT last_seq FROM replica_state WHERE one = 1').get() as {
      last_seq: number;
    };
    return { customers: customers.n, seqSum: customers.sum, lastSeq: state.last_seq };
  } finally {
    db.close();
  }
}

/**
 * Resolves once the store has nothing left to do (events processed, drafts sent), its last change stood
 * still for a second, and every replica has it. After `timeoutMs` it rejects, or with `orAsItIs` resolves
 * with the store as it is then and `caughtUp: false` (the figures then count what the desks missed).
 */
export async function everyDeskCaughtUp(
  db: pg.ClientBase,
  journals: readonly string[],
  timeoutMs: number,
  { orAsItIs = false } = {},
): Promise<StoreState & { caughtUp: boolean }> {
  let last = -1;
  let store = await storeState(db);
  for (const started = Date.now(); Date.now() - started < timeoutMs; ) {
    store = await storeState(db);
    const quiet = store.unprocessed === 0 && store.queuedDrafts === 0 && store.lastChange === last;
    if (quiet && journals.every((file) => replicaState(file).lastSeq >= store.lastChange)) {
      return { ...store, caughtUp: true };
    }
    last = store.lastChange;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  if (orAsItIs) return { ...store, caughtUp: false };
  throw new Error(`the desks did not catch up with the store within ${timeoutMs / 1000} s`);
}

/** When a hub took the listener role at or after `since` (epoch ms), from the hubs' own logs. */
export function roleTakes(hubDirs: readonly string[], since: number): number[] {
  const times: number[] = [];
  for (const dir of hubDirs) {
    for (const line of readFileSync(path.join(dir, 'vetted.log'), 'utf8').split('\n')) {
      if (!line.includes('took the listener role')) continue;
      const at = Date.parse((JSON.parse(line) as { at: string }).at);
      if (at >= since) times.push(at);
    }
  }
  return times.sort((a, b) => a - b);
}
