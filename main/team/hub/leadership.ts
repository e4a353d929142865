// Which hub holds the team's listener role: the one whose dedicated connection holds the session-level
// advisory lock LISTENER_LOCK. PostgreSQL frees the lock the moment that session ends, however it ends
// (clean stop, crash, network cut), so a standby that keeps trying takes over without any lease to expire.
// The lock lives in one session: a hub whose connection drops can no longer know it holds it, so it gives
// the role up at once, before any other hub could have taken it over for long.
import type pg from 'pg';
import { describeError, type Logger } from '#main/ground/log/logger.ts';
import { HEARTBEAT } from '../store/silence.ts';
import { LISTENER_LOCK } from '../store/sql.ts';

export type LeadershipRole = 'leader' | 'standby' | 'stopped';

/** Runs `run` after `ms`; returns a function that cancels it. Injected by tests to trigger retries. */
export type Schedule = (run: () => void, ms: number) => () => void;

export interface LeadershipOptions {
  /** A new, connected client used for nothing else (the lock belongs to its session). */
  connect: () => Promise<pg.Client>;
  /** Became leader: start the role. Throwing gives the lock back for another hub. */
  onLead(): Promise<void> | void;
  /** No longer leader (connection lost, or `stop`): stop the role. */
  onLose(): Promise<void> | void;
  /** Became standby (first attempt, or after losing the role); not repeated on every retry. */
  onStandby?(): Promise<void> | void;
  /** How long a standby waits between attempts (and after a lost connection). */
  retryMs: number;
  /**
   * How often a leader asks its session (`SELECT 1`): the shorter of retryMs and HEARTBEAT.everyMs by
   * default. Its answer is bounded by the connection's own statement deadline.
   */
  heartbeatMs?: number;
  schedule?: Schedule;
  log: Pick<Logger, 'info' | 'warn' | 'error'>;
}

export interface Leadership {
  role(): LeadershipRole;
  /** Gives the role up (onLose first, so the listener stops before another hub starts its own), releases
   * the lock and ends the connection. */
  stop(): Promise<void>;
}

const realSchedule: Schedule = (run, ms) => {
  const timer = setTimeout(run, ms);
  return () => clearTimeout(timer);
};

/**
 * How long the leadership session may stay quiet before the server should end it: a standby asks every
 * retryMs, a leader at least as often, each within `answerMs`. Quieter than that, the hub is gone or cut
 * off, and the lock must go to a standby.
 */
export const leadershipQuietMs = (retryMs: number, answerMs: number): number => retryMs + answerMs;

export function startLeadership(options: LeadershipOptions): Leadership {
  const schedule = options.schedule ?? realSchedule;
  const { log } = options;
  let role: LeadershipRole = 'standby';
  let announcedStandby = false;
  let client: pg.Client | undefined;
  let cancelRetry: (() => void) | undefined;
  // Every step runs after the previous one: an attempt, a lost connection and stop never interleave.
  let chain: Promise<void> = Promise.resolve();
  const serial = (step: () => Promise<void>): Promise<void> => {
    chain = chain
      .then(step)
      .catch((error: unknown) => log.error('leadership step failed', describeError(error)));
    return chain;
  };

  const heartbeatMs = options.heartbeatMs ?? Math.min(options.retryMs, HEARTBEAT.everyMs);
  /** Runs `step` after `ms`: a standby's next attempt, or a leader's next heartbeat. */
  const later = (step: () => Promise<void>, ms: number) => {
    if (role === 'stopped') return;
    cancelRetry?.();
    cancelRetry = schedule(() => {
      cancelRetry = undefined;
      void serial(step);
    }, ms);
  };
  const retryLater = () => later(attempt, options.retryMs);

  const becomeStandby = async () => {
    role = 'standby';
    if (announcedStandby) return;
    announcedStandby = true;
    await options.onStandby?.();
  };

  const dropClient = async (gone: pg.Client) => {
    if (client === gone) client = undefined;
    await gone.end().catch(() => undefined);
  };

  /** The connection `watched` is gone (or cannot be trusted): give the role up if held, then retry. */
  const lost = async (watched: pg.Client) => {
    if (client !== watched || role === 'stopped') return;
    client = undefined;
    if (role === 'leader') {
      log.warn('hub: lost the connection holding the listener role; giving the role up');
      role = 'standby';
      announcedStandby = false;
      try {
        await options.onLose();
      } finally {
        await watched.end().catch(() => undefined);
        retryLater();
      }
      await becomeStandby();
      return;
    }
    await watched.end().catch(() => undefined);
    retryLater();
  };

  const watch = (watched: pg.Client) => {
    const onGone = () => void serial(() => lost(watched));
    watched.on('error', onGone);
    watched.on('end', onGone);
  };

  // A connection cut without a word (no RST) shows no 'error' until TCP gives up, while the server may
  // already have ended the session and freed the lock: the leader asks its session every heartbeatMs, and
  // gives the role up when it does not answer within the connection's statement deadline.
  async function heartbeat(): Promise<void> {
    const session = client;
    if (role !== 'leader' || !session) return;
    try {
      await session.query('SELECT 1');
    } catch (error) {
      log.warn('hub: the connection holding the listener role does not answer', describeError(error));
      await lost(session);
      return;
    }
    later(heartbeat, heartbeatMs);
  }

  const connected = async (): Promise<pg.Client> => {
    if (client) return client;
    const fresh = await options.connect();
    client = fresh;
    watch(fresh);
    return fresh;
  };

  async function attempt(): Promise<void> {
    if (role !== 'standby') return;
    let session: pg.Client;
    let held: boolean;
    try {
      session = await connected();
      const { rows } = await session.query<{ held: boolean }>('SELECT pg_try_advisory_lock($1) AS held', [
        LISTENER_LOCK,
      ]);
      held = rows[0]?.held === true;
    } catch (error) {
      log.warn('hub: cannot reach the team store to take the listener role', describeError(error));
      if (client) await dropClient(client);
      await becomeStandby();
      retryLater();
      return;
    }
    if (!held) {
      await becomeStandby();
      retryLater();
      return;
    }
    role = 'leader';
    announcedStandby = false;
    try {
      await options.onLead();
      later(heartbeat, heartbeatMs);
    } catch (error) {
      log.error('hub: could not start the listener role; giving the lock back', describeError(error));
      role = 'standby';
      await unlock(session);
      await becomeStandby();
      retryLater();
    }
  }

  const unlock = async (session: pg.Client) => {
    try {
      await session.query('SELECT pg_advisory_unlock($1)', [LISTENER_LOCK]);
    } catch {
      // A session that cannot run the unlock is a broken one: ending it frees the lock all the same.
      await dropClient(session);
    }
  };

  void serial(attempt);

  return {
    role: () => role,
    stop() {
      cancelRetry?.();
      cancelRetry = undefined;
      return serial(async () => {
        // A step that ran before this one may have scheduled another.
        cancelRetry?.();
        cancelRetry = undefined;
        const wasLeader = role === 'leader';
        role = 'stopped';
        const session = client;
        client = undefined;
        try {
          if (wasLeader) await options.onLose();
        } finally {
          if (session) {
            if (wasLeader) await unlock(session);
            await session.end().catch(() => undefined);
          }
        }
      });
    },
  };
}
