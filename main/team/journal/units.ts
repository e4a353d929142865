// The team journal's units of work: a local SQLite transaction around a PostgreSQL one. PostgreSQL commits
// first, then the local journal; a failure in the work or in PostgreSQL rolls both back. Calls to the
// journal from outside wait for the unit under way (as the local journal's do), and calls to the journal
// itself from inside a unit are refused: they would wait for it for ever.
import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import { JournalError } from '#main/data/journal/errors.ts';
import type {
  Journal,
  JournalRepositories,
  JournalTransaction,
  TransactionOptions,
} from '#main/data/journal/interface.ts';
import { type Checkout, checkout } from '../store/checkout.ts';
import { type TeamDb, transactionDb } from './team-db.ts';

/** Builds the journal's repositories on a TeamDb and the local journal's repositories of the same unit. */
export type Compose = (db: TeamDb, local: JournalRepositories) => JournalRepositories;

export interface TeamUnitsOptions {
  pool: pg.Pool;
  local: Journal;
  compose: Compose;
  /** Hears the highest change number a committed unit drew (the replica catches up before it resolves). */
  onCommitted?: (seq: number) => Promise<void>;
}

export function teamUnits({ pool, local, compose, onCommitted }: TeamUnitsOptions) {
  const inside = new AsyncLocalStorage<true>();
  /** Settles when the unit under way ends. */
  let open: Promise<void> | null = null;

  const refuseInside = () => {
    if (inside.getStore()) {
      throw new JournalError(
        'Inside a journal transaction, use the repositories it gives (tx), not the journal.',
      );
    }
  };

  return {
    refuseInside,

    /** For every call from outside a unit: waits for the unit under way, refuses one from inside. */
    async outside<T>(call: () => Promise<T>): Promise<T> {
      refuseInside();
      while (open) await open;
      return call();
    },

    async transaction<T>(
      work: (tx: JournalTransaction) => Promise<T>,
      options?: TransactionOptions,
    ): Promise<T> {
      refuseInside();
      // The local journal runs its units one at a time, in order: this one's PostgreSQL part runs inside.
      const { result, drawn } = await local.transaction((localTx) => {
        let end!: () => void;
        open = new Promise<void>((resolve) => {
          end = resolve;
        });
        return inside
          .run(true, () => onPostgres(pgUnit(pool, compose), localTx, work))
          .finally(() => {
            open = null;
            end();
          });
      }, options);
      if (drawn > 0) await onCommitted?.(drawn);
      return result;
    },
  };
}

/**
 * The PostgreSQL part of one unit of work: a transaction that begins only when the work first touches the
 * team store, so a unit of drafts alone (drafting offline) never needs the store.
 */
interface PgUnit {
  readonly pool: pg.Pool;
  readonly compose: Compose;
  /** The session the transaction runs on, once begun. */
  out: Checkout | undefined;
  client: pg.PoolClient | undefined;
  starting: Promise<pg.PoolClient> | undefined;
  /** Set once the unit commits or fails: a statement the work did not wait for may not run after it. */
  ended: boolean;
  /** The highest change number drawn by what is still part of the transaction. */
  drawn: number;
  /** A nested unit that failed after it began the PostgreSQL transaction: no savepoint can undo it. */
  poisoned: boolean;
  /** A client whose first statement begins the transaction. */
  readonly lazy: pg.PoolClient;
  readonly db: TeamDb;
}

function pgUnit(pool: pg.Pool, compose: Compose): PgUnit {
  const lazy = {
    query: (...args: Parameters<pg.PoolClient['query']>) =>
      unit.ended
        ? Promise.reject(
            new JournalError('A statement came after its unit of work had ended: it was not run.'),
          )
        : begin(unit).then((connected) => (connected.query as (...a: typeof args) => unknown)(...args)),
  } as unknown as pg.PoolClient;
  const unit: PgUnit = {
    pool,
    compose,
    out: undefined,
    client: undefined,
    starting: undefined,
    ended: false,
    drawn: 0,
    poisoned: false,
    lazy,
    db: transactionDb(lazy, (seq) => {
      unit.drawn = Math.max(unit.drawn, seq);
    }),
  };
  return unit;
}

/** Takes a session and begins the transaction on it, once: every statement of the unit waits for it. */
function begin(unit: PgUnit): Promise<pg.PoolClient> {
  unit.starting ??= (async () => {
    const taken = await checkout(unit.pool);
    try {
      await taken.client.query('BEGIN');
    } catch (error) {
      taken.release(error as Error);
      throw error;
    }
    unit.out = taken;
    unit.client = taken.client;
    return taken.client;
  })();
  return unit.starting;
}

/** The repositories of the unit (the team store's on its transaction, the local ones of `localUnit`). */
function repositoriesOf(unit: PgUnit, localUnit: JournalTransaction): JournalTransaction {
  return {
    ...unit.compose(unit.db, localUnit),
    transaction: (work) => localUnit.transaction((localNested) => nested(unit, localNested, work)),
  };
}

/**
 * A unit inside the unit: under a savepoint when the transaction had begun before it. One that began the
 * transaction itself has no savepoint to go back to: if it fails, the whole unit fails at its end (`poisoned`).
 */
async function nested<T>(
  unit: PgUnit,
  localNested: JournalTransaction,
  work: (tx: JournalTransaction) => Promise<T>,
): Promise<T> {
  const before = unit.drawn;
  const savepoint = unit.client !== undefined;
  if (savepoint) await unit.lazy.query('SAVEPOINT nested');
  try {
    const result = await work(repositoriesOf(unit, localNested));
    if (savepoint) await unit.lazy.query('RELEASE SAVEPOINT nested');
    return result;
  } catch (error) {
    unit.drawn = before;
    if (!savepoint && unit.client) unit.poisoned = true;
    // If even this fails, the transaction is doomed and its COMMIT says so (commit): the work's own
    // error is the one to report here.
    if (savepoint) {
      await unit.lazy.query('ROLLBACK TO SAVEPOINT nested; RELEASE SAVEPOINT nested').catch(() => undefined);
    }
    throw error;
  }
}

/** Runs `work` with the local unit `localTx` around the PostgreSQL transaction, and commits or rolls back. */
async function onPostgres<T>(
  unit: PgUnit,
  localTx: JournalTransaction,
  work: (tx: JournalTransaction) => Promise<T>,
): Promise<{ result: T; drawn: number }> {
  let broken: Error | undefined;
  try {
    const result = await work(repositoriesOf(unit, localTx));
    unit.ended = true;
    if (!unit.client) return { result, drawn: 0 };
    await commit(unit, unit.client);
    return { result, drawn: unit.drawn };
  } catch (error) {
    unit.ended = true;
    broken = await rollBack(unit);
    throw error;
  } finally {
    unit.out?.release(broken);
  }
}

async function commit(unit: PgUnit, client: pg.PoolClient): Promise<void> {
  if (unit.poisoned) {
    throw new JournalError(
      'A nested unit of work failed after it wrote to the team store: nothing was kept.',
    );
  }
  // PostgreSQL answers COMMIT with ROLLBACK, not an error, for a transaction a failed statement aborted
  // (work that caught a database error and went on): the local part must then roll back too.
  const { command } = await client.query('COMMIT');
  if (command !== 'COMMIT') {
    throw new JournalError('The team store rolled the transaction back: a statement in it had failed.');
  }
}

/** Rolls the transaction back if it began; returns the error of a session that must not go back to the pool. */
async function rollBack(unit: PgUnit): Promise<Error | undefined> {
  let broken: Error | undefined;
  // Work that failed without waiting for its first statement may leave the BEGIN under way: let it end, so
  // that session too is rolled back and given back instead of kept out of the pool.
  await unit.starting?.catch(() => undefined);
  await unit.client?.query('ROLLBACK').catch((failed: Error) => {
    // The connection is gone or unusable: it must not go back to the pool.
    broken = failed;
  });
  return broken;
}

type Outside = <T>(call: () => Promise<T>) => Promise<T>;

/** Every repository method, called through `outside`. */
export function gated(repositories: JournalRepositories, outside: Outside): JournalRepositories {
  const wrap = (repository: object) =>
    Object.fromEntries(
      Object.entries(repository).map(([name, value]) => [
        name,
        typeof value === 'function'
          ? (...args: unknown[]) => outside(() => value.apply(repository, args))
          : value,
      ]),
    );
  return Object.fromEntries(
    Object.entries(repositories).map(([name, repository]) => [name, wrap(repository)]),
  ) as unknown as JournalRepositories;
}
