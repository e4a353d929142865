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

/** One hub's part in the election: its role, its session and what is scheduled next. */
interface LeadershipState {
  options: LeadershipOptions;
  schedule: Schedule;
  heartbeatMs: number;
  role: LeadershipRole;
  announcedStandby: boolean;
  client: pg.Client | undefined;
  cancelRetry: (() => void) | undefined;
  /** Every step runs after the previous one: an attempt, a lost connection and stop never interleave. */
  chain: Promise<void>;
}

export function startLeadership(options: LeadershipOptions): Leadership {
  const state: LeadershipState = {
    options,
    schedule: options.schedule ?? realSchedule,
    heartbeatMs: options.heartbeatMs ?? Math.min(options.retryMs, HEARTBEAT.everyMs),
    role: 'standby',
    announcedStandby: false,
    client: undefined,
    cancelRetry: undefined,
    chain: Promise.resolve(),
  };
  void serial(state, () => attempt(state));
  return {
    role: () => state.role,
    stop: () => stop(state),
  };
}

function serial(state: LeadershipState, step: () => Promise<void>): Promise<void> {
  state.chain = state.chain
    .then(step)
    .catch((error: unknown) => state.options.log.error('leadership step failed', describeError(error)));
  return state.chain;
}

/** Runs `step` after `ms`: a standby's next attempt, or a leader's next heartbeat. */
function later(state: LeadershipState, step: () => Promise<void>, ms: number): void {
  if (state.role === 'stopped') return;
  state.cancelRetry?.();
  state.cancelRetry = state.schedule(() => {
    state.cancelRetry = undefined;
    void serial(state, step);
  }, ms);
}

function retryLater(state: LeadershipState): void {
  later(state, () => attempt(state), state.options.retryMs);
}

async function becomeStandby(state: LeadershipState): Promise<void> {
  state.role = 'standby';
  if (state.announcedStandby) return;
  state.announcedStandby = true;
  await state.options.onStandby?.();
}

async function dropClient(state: LeadershipState, gone: pg.Client): Promise<void> {
  if (state.client === gone) state.client = undefined;
  await gone.end().catch(() => undefined);
}

/** The connection `watched` is gone (or cannot be trusted): give the role up if held, then retry. */
async function lost(state: LeadershipState, watched: pg.Client): Promise<void> {
  if (state.client !== watched || state.role === 'stopped') return;
  state.client = undefined;
  if (state.role === 'leader') {
    state.options.log.warn('hub: lost the connection holding the listener role; giving the role up');
    state.role = 'standby';
    state.announcedStandby = false;
    try {
      await state.options.onLose();
    } finally {
      await watched.end().catch(() => undefined);
      retryLater(state);
    }
    await becomeStandby(state);
    return;
  }
  await watched.end().catch(() => undefined);
  retryLater(state);
}

function watch(state: LeadershipState, watched: pg.Client): void {
  const onGone = () => void serial(state, () => lost(state, watched));
  watched.on('error', onGone);
  watched.on('end', onGone);
}

// A connection cut without a word (no RST) shows no 'error' until TCP gives up, while the server may
// already have ended the session and freed the lock: the leader asks its session every heartbeatMs, and
// gives the role up when it does not answer within the connection's statement deadline.
async function heartbeat(state: LeadershipState): Promise<void> {
  const session = state.client;
  if (state.role !== 'leader' || !session) return;
  try {
    await session.query('SELECT 1');
  } catch (error) {
    state.options.log.warn(
      'hub: the connection holding the listener role does not answer',
      describeError(error),
    );
    await lost(state, session);
    return;
  }
  later(state, () => heartbeat(state), state.heartbeatMs);
}

async function connected(state: LeadershipState): Promise<pg.Client> {
  if (state.client) return state.client;
  const fresh = await state.options.connect();
  state.client = fresh;
  watch(state, fresh);
  return fresh;
}

/** Tries the lock once: whether this hub now holds it, or undefined when the store could not be asked. */
async function tryLock(state: LeadershipState): Promise<{ session: pg.Client; held: boolean } | undefined> {
  try {
    const session = await connected(state);
    const { rows } = await session.query<{ held: boolean }>('SELECT pg_try_advisory_lock($1) AS held', [
      LISTENER_LOCK,
    ]);
    return { session, held: rows[0]?.held === true };
  } catch (error) {
    state.options.log.warn(
      'hub: cannot reach the team store to take the listener role',
      describeError(error),
    );
    if (state.client) await dropClient(state, state.client);
    return undefined;
  }
}

async function attempt(state: LeadershipState): Promise<void> {
  if (state.role !== 'standby') return;
  const tried = await tryLock(state);
  if (!tried?.held) {
    await becomeStandby(state);
    retryLater(state);
    return;
  }
  state.role = 'leader';
  state.announcedStandby = false;
  try {
    await state.options.onLead();
    later(state, () => heartbeat(state), state.heartbeatMs);
  } catch (error) {
    state.options.log.error(
      'hub: could not start the listener role; giving the lock back',
      describeError(error),
    );
    state.role = 'standby';
    await unlock(state, tried.session);
    await becomeStandby(state);
    retryLater(state);
  }
}

async function unlock(state: LeadershipState, session: pg.Client): Promise<void> {
  try {
    await session.query('SELECT pg_advisory_unlock($1)', [LISTENER_LOCK]);
  } catch {
    // A session that cannot run the unlock is a broken one: ending it frees the lock all the same.
    await dropClient(state, session);
  }
}

function stop(state: LeadershipState): Promise<void> {
  state.cancelRetry?.();
  state.cancelRetry = undefined;
  return serial(state, async () => {
    // A step that ran before this one may have scheduled another.
    state.cancelRetry?.();
    state.cancelRetry = undefined;
    const wasLeader = state.role === 'leader';
    state.role = 'stopped';
    const session = state.client;
    state.client = undefined;
    try {
      if (wasLeader) await state.options.onLose();
    } finally {
      if (session) {
        if (wasLeader) await unlock(state, session);
        await session.end().catch(() => undefined);
      }
    }
  });
}
