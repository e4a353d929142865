// The drainer's own session: it hears submits (LISTEN, unless the drainer hears them elsewhere) and holds the
// drainer's liveness lock (liveness.ts) for as long as it lives. A drainer that dies loses the lock with its
// session; one whose session is lost or goes silent opens another at its next pass.
import type pg from 'pg';
import { describeError, type Logger } from '#main/ground/log/logger.ts';
import { type Checkout, checkout } from '../store/checkout.ts';
import { holdLiveness } from './liveness.ts';
import { OUTBOX_CHANNEL } from './rows.ts';

export interface DrainListener {
  /** Where the session comes from. */
  readonly pool: pg.Pool;
  /** Who holds the lock: the drainer's lease holder. */
  readonly holder: string;
  readonly log: Logger;
  /** Called on each NOTIFY; undefined when submits are heard elsewhere, and the session only holds the lock. */
  readonly onNotify: (() => void) | undefined;
  /** The session, while it lives. */
  out: Checkout | undefined;
  /** This drainer's liveness lock key, once known, and whether its listening session holds it. */
  liveness: { key: string; held: boolean } | undefined;
}

export function drainListener(
  pool: pg.Pool,
  holder: string,
  log: Logger,
  onNotify: (() => void) | undefined,
): DrainListener {
  return { pool, holder, log, onNotify, out: undefined, liveness: undefined };
}

/** Opens the session if none lives, and holds the liveness lock on it if it does not yet. */
export async function listen(listener: DrainListener): Promise<void> {
  const { holder, log, onNotify } = listener;
  if (listener.out) {
    // The lock may still have been held by this drainer's previous session when it asked.
    if (!listener.liveness?.held) listener.liveness = await holdLiveness(listener.out.client, holder);
    return;
  }
  const out = await checkout(listener.pool, (error) => {
    log.warn('team outbox: lost the notification connection', describeError(error));
    if (listener.out === out) forget(listener);
    out.release(error);
  });
  const { client } = out;
  if (onNotify) client.on('notification', onNotify);
  try {
    if (onNotify) await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
    listener.liveness = await holdLiveness(client, holder);
  } catch (error) {
    out.release(error as Error);
    throw error;
  }
  listener.out = out;
}

function forget(listener: DrainListener): void {
  listener.out = undefined;
  listener.liveness = undefined;
}

/**
 * A session that holds a lock says nothing of its own: asked now and then, one that went silent is found,
 * given up (the server ends it too: the notifications pool asks it to at connect) and opened again.
 */
async function stillThere(listener: DrainListener, out: Checkout): Promise<void> {
  try {
    await out.client.query('SELECT 1');
  } catch (error) {
    // Its loss may have let it go already.
    if (listener.out !== out) return;
    listener.log.warn('team outbox: the notification connection does not answer', describeError(error));
    forget(listener);
    out.release(error instanceof Error ? error : new Error(String(error)));
  }
}

/**
 * Asks the session `SELECT 1` every `everyMs`, on a timer of its own (a slow pass must not leave it quiet), one
 * question at a time; returns what stops it.
 */
export function startHeartbeat(listener: DrainListener, everyMs: number): () => void {
  let beating = false;
  const heartbeat = setInterval(() => {
    if (!listener.out || beating) return;
    beating = true;
    void stillThere(listener, listener.out).finally(() => {
      beating = false;
    });
  }, everyMs);
  heartbeat.unref();
  return () => clearInterval(heartbeat);
}

/** Ends the session, not given back to the pool: the liveness lock goes with it. */
export function letGo(listener: DrainListener): void {
  const out = listener.out;
  listener.out = undefined;
  out?.release(new Error('the team outbox drainer stopped'));
}
