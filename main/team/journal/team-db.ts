// How the team journal's repositories reach PostgreSQL. Each repository is built on a `TeamDb`: outside a
// unit of work, every write opens a transaction of its own; inside one (journal.transaction), every
// statement runs on that transaction's client. Repositories never call BEGIN/COMMIT themselves.
import type pg from 'pg';
import type { AuditSealer } from '#main/data/journal/audit-chain.ts';
import type { PersonalCipher } from '#main/data/journal/personal.ts';
import type { Clock } from '#main/data/journal/time.ts';
import { checkout } from '../store/checkout.ts';
import { CHANGE_LOCK, type Queryable } from '../store/sql.ts';

export interface TeamDb {
  /** For reads: the pool, or the transaction's client. */
  readonly read: Queryable;
  /** Runs `work` in the current transaction, or in a new one of its own (committed when it resolves). */
  write<T>(work: (client: Queryable) => Promise<T>): Promise<T>;
  /**
   * A write of ONE statement: in the current transaction, or as a transaction of its own without BEGIN and
   * COMMIT (PostgreSQL commits a lone statement by itself, durable when it returns: one round trip, not three).
   */
  writeStatement<T>(statement: (client: Queryable) => Promise<T>): Promise<T>;
  /**
   * Draws the next change number for a row desks copy (customers, status_history, notes, retries, claims),
   * inside `write`'s transaction: takes CHANGE_LOCK until the commit (so numbers commit in order; the rows
   * announce themselves to every desk at the commit, never before). Draw it before locking
   * any row (FOR UPDATE, UPDATE): every writer takes CHANGE_LOCK first, so none waits on another in a circle.
   */
  nextChange(client: Queryable): Promise<number>;
  /**
   * Notes a change number a statement of the caller's drew itself (with `DRAWN_CTE`), as `nextChange` notes
   * the ones it draws.
   */
  noteChange(client: Queryable, seq: number): void;
  /** Change numbers drawn by writes committed (or about to be) through this TeamDb, for read-your-writes. */
  readonly lastChange: () => number;
  /**
   * Before an audit entry locks the chain's head: inside a unit of work, which may draw a change number after
   * it, takes CHANGE_LOCK first, so every writer takes the two in the same order (CHANGE_LOCK, then the head)
   * and none waits on another in a circle. A write of its own locks the head alone.
   */
  beforeAuditHead(client: Queryable): Promise<void>;
}

/** What every team repository is built from. */
export interface TeamRepositoryContext {
  db: TeamDb;
  /** Seals personal data with the team data key (the AAD names table, row and column, as locally). */
  cipher: PersonalCipher;
  /** Seals the audit chain with the audit key derived from the team data key. */
  sealer: AuditSealer;
  clock: Clock;
}

// One statement, one round trip: CHANGE_LOCK is held from here to the commit, and every writer of the team
// waits for it, so each round trip a write makes after taking it is a wait for all of them. The lock is taken
// before the number is drawn (`drawn` reads `locked`): numbers must commit in the order they are drawn. No
// NOTIFY of its own: the rows written under the number announce themselves at the commit (migration 11), and
// each notification costs the store work in every session that listens.

/**
 * The change number's draw as the CTEs `locked` and `drawn` (its `seq`): alone (`drawChange`), or at the head
 * of a statement that goes on in the same round trip (a writer's row locked after it, with CHANGE_LOCK held). $1 is CHANGE_LOCK. What follows must read `drawn` before it touches a row (say `WHERE EXISTS
 * (SELECT FROM drawn)`, which PostgreSQL runs before the scan): CHANGE_LOCK first, then rows, as always.
 */
export const DRAWN_CTE = `locked AS MATERIALIZED (SELECT pg_advisory_xact_lock($1)),
  drawn AS MATERIALIZED (SELECT nextval('vetted.change_seq') AS seq FROM locked)`;

const DRAW_CHANGE = `WITH ${DRAWN_CTE} SELECT seq FROM drawn`;

export async function drawChange(client: Queryable): Promise<number> {
  const { rows } = await client.query<{ seq: string }>(DRAW_CHANGE, [CHANGE_LOCK]);
  return drawnSeq(rows[0]?.seq);
}

/** A change number as the store answered it (bigint: a string). */
export function drawnSeq(value: unknown): number {
  const seq = Number(value);
  if (value === null || value === undefined || !Number.isSafeInteger(seq)) {
    throw new Error('The team store drew no change number.');
  }
  return seq;
}

/**
 * A TeamDb on a pool: each write is its own transaction. `onCommitted` hears the highest change number a
 * write drew, once it has committed (the desk's replica catches up there before the write resolves).
 */
export function poolDb(pool: pg.Pool, onCommitted?: (seq: number) => Promise<void>): TeamDb {
  let last = 0;
  /** The change numbers each open write has drawn, by its client. */
  const drawn = new WeakMap<Queryable, number>();
  const noteChange = (client: Queryable, seq: number) => {
    last = Math.max(last, seq);
    drawn.set(client, Math.max(drawn.get(client) ?? 0, seq));
  };
  return {
    read: pool,
    async write(work) {
      const out = await checkout(pool);
      const { client } = out;
      let result: Awaited<ReturnType<typeof work>>;
      let seq: number | undefined;
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        result = await work(client);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch((failed: Error) => {
          // A session that cannot even roll back (its connection lost) must not go back to the pool.
          broken = failed;
        });
        throw error;
      } finally {
        // Read and forgotten before the client goes back to the pool: a rolled-back write's numbers never
        // reach the next write on it.
        seq = drawn.get(client);
        drawn.delete(client);
        out.release(broken);
      }
      if (seq !== undefined) await onCommitted?.(seq);
      return result;
    },
    async nextChange(client) {
      const seq = await drawChange(client);
      noteChange(client, seq);
      return seq;
    },
    noteChange,
    writeStatement: (statement) => statement(pool),
    lastChange: () => last,
    beforeAuditHead: async () => undefined,
  };
}

/** A TeamDb bound to one open transaction's client (journal.transaction's repositories). */
export function transactionDb(client: pg.PoolClient, onChange: (seq: number) => void): TeamDb {
  let last = 0;
  const noteChange = (_inner: Queryable, seq: number) => {
    last = Math.max(last, seq);
    onChange(seq);
  };
  return {
    read: client,
    write: (work) => work(client),
    writeStatement: (statement) => statement(client),
    async nextChange(inner) {
      const seq = await drawChange(inner);
      noteChange(inner, seq);
      return seq;
    },
    noteChange,
    lastChange: () => last,
    async beforeAuditHead(inner) {
      await inner.query('SELECT pg_advisory_xact_lock($1)', [CHANGE_LOCK]);
    },
  };
}
