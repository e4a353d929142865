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

  /**
   * Runs `work` with the local unit `localTx` around a PostgreSQL transaction that begins only when the work
   * first touches the team store: a unit of drafts alone (drafting offline) never needs the store.
   */
  const onPostgres = async <T>(localTx: JournalTransaction, work: (tx: JournalTransaction) => Promise<T>) => {
    let out: Checkout | undefined;
    let client: pg.PoolClient | undefined;
    let starting: Promise<pg.PoolClient> | undefined;
    const begin = () => {
      starting ??= (async () => {
        const taken = await checkout(pool);
        try {
          await taken.client.query('BEGIN');
        } catch (error) {
          taken.release(error as Error);
          throw error;
        }
        out = taken;
        client = taken.client;
        return taken.client;
      })();
      return starting;
    };
    /** Set once the unit commits or fails: a statement the work did not wait for may not run after it. */
    let ended = false;
    const lazy = {
      query: (...args: Parameters<pg.PoolClient['query']>) =>
        ended
          ? Promise.reject(
              new JournalError('A statement came after its unit of work had ended: it was not run.'),
            )
          : begin().then((connected) => (connected.query as (...a: typeof args) => unknown)(...args)),
    } as unknown as pg.PoolClient;
    /** The highest change number drawn by what is still part of the transaction. */
    let drawn = 0;
    /** A nested unit that failed after it began the PostgreSQL transaction: no savepoint can undo it. */
    let poisoned = false;
    const db = transactionDb(lazy, (seq) => {
      drawn = Math.max(drawn, seq);
    });
    const unit = (localUnit: JournalTransaction): JournalTransaction => ({
      ...compose(db, localUnit),
      transaction: (nested) =>
        localUnit.transaction(async (localNested) => {
          const before = drawn;
          const savepoint = client !== undefined;
          if (savepoint) await lazy.query('SAVEPOINT nested');
          try {
            const result = await nested(unit(localNested));
            if (savepoint) await lazy.query('RELEASE SAVEPOINT nested');
            return result;
          } catch (error) {
            drawn = before;
            if (!savepoint && client) poisoned = true;
            // If even this fails, the transaction is doomed and its COMMIT says so (below): the work's own
            // error is the one to report here.
            if (savepoint) {
              await lazy
                .query('ROLLBACK TO SAVEPOINT nested; RELEASE SAVEPOINT nested')
                .catch(() => undefined);
            }
            throw error;
          }
        }),
    });
    let broken: Error | undefined;
    try {
      const result = await work(unit(localTx));
      ended = true;
      if (!client) return { result, drawn: 0 };
      if (poisoned) {
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
      return { result, drawn };
    } catch (error) {
      ended = true;
      // Work that failed without waiting for its first statement may leave the BEGIN under way: let it end, so
      // that session too is rolled back and given back instead of kept out of the pool.
      await starting?.catch(() => undefined);
      await client?.query('ROLLBACK').catch((failed: Error) => {
        // The connection is gone or unusable: it must not go back to the pool.
        broken = failed;
      });
      throw error;
    } finally {
      out?.release(broken);
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
          .run(true, () => onPostgres(localTx, work))
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
