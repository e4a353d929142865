// A pool whose callers wait their turn when every connection is busy, for a bound of their own. pg-pool
// bounds that wait with its connect timeout (made for a server that does not answer) and then fails in the
// words of one ("timeout exceeded when trying to connect"); a desk's pool is small on purpose
// (connection-budget.ts), so a burst of work queues behind it, and the wait is its own: longer than any
// healthy statement, and told as what it is if it runs out. Only the wait changes: every client it hands out is
// the pool's, heard for a lost connection as any other (store/pool.ts' 'connect' listener, checkout.ts).
import pg from 'pg';

export interface PoolWait {
  /** How long a caller may wait for a busy pool's connection. */
  waitMs: number;
  /** The failure a caller gets when none came free in time. */
  busy(): Error;
}

/** pg-pool's words for a wait that ran out (a queued caller's, or a connect's). */
const WAIT_RAN_OUT = 'timeout exceeded when trying to connect';

/** The pool class for `wait`: `new (waitingPool(wait))(config)`. */
export function waitingPool(wait: PoolWait): typeof pg.Pool {
  return class WaitingPool extends pg.Pool {
    // biome-ignore lint/suspicious/noExplicitAny: pg-pool's connect has a promise and a callback form; both pass on.
    override connect(callback?: any): any {
      // Full and nothing idle: pg-pool puts the caller in its queue, bounded by connectionTimeoutMillis, which
      // it reads right then (a connection it opens later for the queue reads it again, restored by then).
      if (this.totalCount < (this.options.max ?? 10) || this.idleCount > 0) return super.connect(callback);
      const options = this.options as { connectionTimeoutMillis?: number };
      const own = options.connectionTimeoutMillis;
      options.connectionTimeoutMillis = wait.waitMs;
      try {
        if (typeof callback === 'function') {
          return super.connect((error: Error | undefined, client: unknown, done: unknown) =>
            callback(error && error.message === WAIT_RAN_OUT ? wait.busy() : error, client, done),
          );
        }
        return (super.connect() as Promise<pg.PoolClient>).catch((error: unknown) => {
          throw error instanceof Error && error.message === WAIT_RAN_OUT ? wait.busy() : error;
        });
      } finally {
        options.connectionTimeoutMillis = own;
      }
    }
  };
}
