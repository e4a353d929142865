// Every connection to the team store has its `error` event heard, for as long as it lives. node-postgres emits
// `error` on a client whose connection dies (a failover, a restarted server, pg_terminate_backend, a dropped
// VPN), and an `error` event no one hears ends the whole process. pg-pool hears it only while a client idles
// in the pool: it takes its listener off a client it hands out. So a pooled client is taken out through
// `checkout` (a listener for the time it is out, and a dead one discarded on release), and a connection of its
// own is made by `dedicatedClient` (a listener from before it connects). The statement under way fails with
// the loss too: that rejection is what the caller reports, in words (store-failures.ts, connection-error.ts).
import pg from 'pg';

/** A client out of the pool, its lost connection heard until it goes back. */
export interface Checkout {
  readonly client: pg.PoolClient;
  /** What the connection died of while out, if it did. */
  readonly lost: Error | undefined;
  /**
   * Back to the pool, once (later calls do nothing). With an error, or after the connection died, the pool
   * discards it instead of handing a dead or doubtful session to the next caller.
   */
  release(error?: Error): void;
}

/** Takes a client out of `pool`; `onLost` hears its connection die (at most once) while it is out. */
export async function checkout(pool: pg.Pool, onLost?: (error: Error) => void): Promise<Checkout> {
  const client = await pool.connect();
  let lost: Error | undefined;
  let released = false;
  const hear = (error: Error) => {
    if (lost) return;
    lost = error;
    onLost?.(error);
  };
  client.on('error', hear);
  return {
    client,
    get lost() {
      return lost;
    },
    release(error) {
      if (released) return;
      released = true;
      // pg-pool puts its own listener back on release: from here on it hears this client.
      client.removeListener('error', hear);
      client.release(error ?? lost);
    },
  };
}

/** Runs `work` on a client of `pool` and gives it back, discarded if `work` failed on a dead connection. */
export async function withClient<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const out = await checkout(pool);
  try {
    return await work(out.client);
  } finally {
    out.release();
  }
}

/**
 * A connection of its own (LISTEN, a session's advisory lock, an administrator's task), `onError` listening
 * before it connects: a connection that dies at any time afterwards is reported there, never left to end the
 * process. The owner decides what a loss means (reconnect, give up a role, fail the task in words).
 */
export function dedicatedClient(config: pg.ClientConfig, onError: (error: Error) => void): pg.Client {
  const client = new pg.Client(config);
  client.on('error', onError);
  return client;
}
